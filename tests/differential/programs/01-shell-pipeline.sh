# A shell pipeline: one sh forking four commands joined by pipes, plus a
# redirection to a file and a command that fails to open its input.
cat /etc/passwd | grep root | sort | wc -l > count.txt
cat count.txt
cat /nonexistent/file 2>/dev/null || echo missing
