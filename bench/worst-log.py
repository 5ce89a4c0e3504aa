"""Write the drawn reports' worst case as an strace -f -tt -T log: more
threads than the timeline gives rows (150), each failing more openat calls
than a thread keeps (5,000), every one of a long path full of the bytes
that JSON and HTML escape. Made up, not recorded: it exists to fill every
cap of event/timeline.h at once, which no real trace does.

    worst-log.py OUT.LOG
"""
import random
import sys


def main():
    rnd = random.Random(1)
    t = 0.0
    with open(sys.argv[1], 'w', encoding='ascii') as f:
        for i in range(150 * 5000):
            tid = 1000 + i % 150
            t += 1e-5
            path = '/opt/models/' + ''.join(rnd.choice('abcdefghij"\\<&') for _ in range(200))
            path = path.replace('\\', '\\\\').replace('"', '\\"')
            f.write(f'{tid} 10:{int(t) // 60 % 60:02d}:{t % 60:09.6f} openat(AT_FDCWD, "{path}", '
                    f'O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory) <0.000010>\n')


if __name__ == '__main__':
    main()
