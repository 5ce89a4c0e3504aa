# Sourced by gdb (tests/crash/run): prints "LWP LEVEL" for every frame that
# gdb made up from DWARF call-site information (a TAILCALL_FRAME: the
# function that jumped to the next one is shown although no return
# address of it is on the stack).  libdwfl, and so rootcause, cannot see
# these; compare.py lets them be absent.  Only the first 60 frames of each
# thread, as `thread apply all bt 60` shows.
import gdb

print("@@tailcalls")
try:
    current = gdb.selected_thread()
    for t in gdb.selected_inferior().threads():
        t.switch()
        f = gdb.newest_frame()
        while f is not None and f.level() < 60:
            if f.type() == gdb.TAILCALL_FRAME:
                print("%d %d" % (t.ptid[1], f.level()))
            f = f.older()
    current.switch()
except gdb.error as e:
    print("error %s" % e)
