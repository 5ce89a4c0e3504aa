# tar+gzip: make a small tree, archive it with `tar czf` (tar forks gzip
# and writes to it through a pipe), list it, and extract it elsewhere.
# --mtime makes the archive the same bytes in every run.
mkdir tree tree/a tree/a/b tree/c
i=0
while [ $i -lt 12 ]; do
	printf 'file %s\n' $i > tree/a/f$i.txt
	i=$((i + 1))
done
printf '%s\n' one two three > tree/a/b/deep.txt
: > tree/c/empty
ln -s ../a/f1.txt tree/c/link
tar --mtime=@0 -czf out.tgz tree
tar tzf out.tgz > list.txt
mkdir dest
tar xzf out.tgz -C dest
cmp tree/a/b/deep.txt dest/tree/a/b/deep.txt
