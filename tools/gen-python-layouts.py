#!/usr/bin/python3
"""Generate src/crash/python_layouts.h: the CPython struct offsets a reader
of Python frames needs, one row per minor version, read from DWARF.

Usage: gen-python-layouts.py [--check] [OUT.h]
       (default OUT.h: src/crash/python_layouts.h)

--check runs each interpreter on a walk of its own structures with the
row's offsets (from _PyRuntime to the running frames, the GIL holder, the
code objects' strings and bytes, and the threads' names through
sys.modules, dicts, ints and instance attributes) and writes nothing if
one disagrees.

3.13's row is there for what its _Py_DebugOffsets lack (dict keys,
instance values, modules: for thread names); its frames are read from the
debug offsets alone.

Each interpreter under $(pyenv root)/versions/3.X.* (X in MINORS, the
newest patch release when there are several) must be a build whose
libpython3.X.so (or python3.X executable) carries DWARF.  gdb prints every
offset as an expression on a null pointer of the type:

    gdb -batch -ex 'printf "%ld\\n", (long)&((PyThreadState *)0)->next' LIBPYTHON

A field is looked up under each of its candidate paths in order (CPython
renamed some across versions); when none resolves the value is -1 and the
row's comment carries gdb's reason.  A version whose interpreter is absent
is left out with a message on stderr: its row is never guessed.

Release builds of one minor version share these layouts (CPython keeps the
ABI of a minor stable), so one patch release stands for its minor.  Debug
builds (Py_DEBUG, Py_TRACE_REFS) do not: the table is for release builds.
"""
import glob
import json
import os
import re
import subprocess
import sys

MINORS = (8, 9, 10, 11, 12, 13, 14)
# Free-threaded builds (3.X.Nt): their objects have a longer header and
# their dicts a lock, so they have rows of their own.
FREE_THREADED_MINORS = (13, 14)


def off(typ, path):
    return "(long)&((%s *)0)->%s" % (typ, path)


RT = "_PyRuntimeState"
IS = "PyInterpreterState"
TS = "PyThreadState"
CF = "_PyCFrame"
FO = "PyFrameObject"
IF = "struct _PyInterpreterFrame"
CO = "PyCodeObject"
GIL = "struct _gil_runtime_state"
TY = "PyTypeObject"
DO = "PyDictObject"
DK = "PyDictKeysObject"
DE = "PyDictKeyEntry"
DU = "PyDictUnicodeEntry"
DV = "PyDictValues"
LO = "PyLongObject"

# (field, C comment, candidate gdb expressions, requires)
# REQUIRES names a field that must resolve for this one to mean what its
# comment says: PyFrameObject still exists in 3.11+, but the frames are
# chained through it only while PyThreadState has a 'frame' member.
FIELDS = [
    ("runtime_interpreters_head", "_PyRuntime.interpreters.head",
     [off(RT, "interpreters.head")], None),
    ("runtime_interpreters_main", "_PyRuntime.interpreters.main",
     [off(RT, "interpreters.main")], None),
    ("runtime_gil_last_holder", "_PyRuntime.ceval.gil.last_holder "
     "(PyThreadState *, 3.8-3.11)",
     [off(RT, "ceval.gil.last_holder")], None),
    ("runtime_gil_locked", "_PyRuntime.ceval.gil.locked (int, 3.8-3.11)",
     [off(RT, "ceval.gil.locked")], None),
    ("interp_next", "PyInterpreterState.next",
     [off(IS, "next")], None),
    ("interp_threads_head", "PyInterpreterState.threads.head "
     "(tstate_head before 3.11)",
     [off(IS, "threads.head"), off(IS, "tstate_head")], None),
    ("interp_ceval_gil", "PyInterpreterState.ceval.gil "
     "(struct _gil_runtime_state *, 3.12+)",
     [off(IS, "ceval.gil")], None),
    ("gil_last_holder", "struct _gil_runtime_state.last_holder",
     [off(GIL, "last_holder")], None),
    ("gil_locked", "struct _gil_runtime_state.locked",
     [off(GIL, "locked")], None),
    ("tstate_next", "PyThreadState.next", [off(TS, "next")], None),
    ("tstate_interp", "PyThreadState.interp", [off(TS, "interp")], None),
    ("tstate_thread_id", "PyThreadState.thread_id (pthread_self())",
     [off(TS, "thread_id")], None),
    ("tstate_native_thread_id", "PyThreadState.native_thread_id "
     "(the kernel tid)",
     [off(TS, "native_thread_id")], None),
    ("tstate_frame", "PyThreadState.frame (PyFrameObject *, 3.8-3.10)",
     [off(TS, "frame")], None),
    ("tstate_cframe", "PyThreadState.cframe (_PyCFrame *, 3.10-3.12)",
     [off(TS, "cframe")], None),
    ("tstate_current_frame", "PyThreadState.current_frame "
     "(_PyInterpreterFrame *, 3.13+)",
     [off(TS, "current_frame")], None),
    ("cframe_current_frame", "_PyCFrame.current_frame "
     "(_PyInterpreterFrame *, 3.11-3.12)",
     [off(CF, "current_frame")], None),
    ("frame_f_back", "PyFrameObject.f_back", [off(FO, "f_back")],
     "tstate_frame"),
    ("frame_f_code", "PyFrameObject.f_code", [off(FO, "f_code")],
     "tstate_frame"),
    ("frame_f_lasti", "PyFrameObject.f_lasti (int: a byte offset "
     "before 3.10, a code unit index in 3.10)",
     [off(FO, "f_lasti")], "tstate_frame"),
    ("frame_f_lineno", "PyFrameObject.f_lineno (valid only while tracing)",
     [off(FO, "f_lineno")], "tstate_frame"),
    ("iframe_code", "_PyInterpreterFrame.f_code (f_executable in 3.13+)",
     [off(IF, "f_code"), off(IF, "f_executable")], None),
    ("iframe_previous", "_PyInterpreterFrame.previous",
     [off(IF, "previous")], None),
    ("iframe_prev_instr", "_PyInterpreterFrame.prev_instr "
     "(_Py_CODEUNIT *, the last instruction begun; instr_ptr in 3.13+)",
     [off(IF, "prev_instr"), off(IF, "instr_ptr")], None),
    ("iframe_owner", "_PyInterpreterFrame.owner (char)",
     [off(IF, "owner")], None),
    ("iframe_is_entry", "_PyInterpreterFrame.is_entry (bool, 3.11)",
     [off(IF, "is_entry")], None),
    ("iframe_localsplus", "_PyInterpreterFrame.localsplus",
     [off(IF, "localsplus")], None),
    ("iframe_tlbc_index", "_PyInterpreterFrame.tlbc_index (int32, the "
     "thread-local bytecode a free-threaded 3.14 runs; from the debug "
     "offsets)",
     [off(IF, "tlbc_index")], None),
    ("frame_owned_by_cstack", "the least owner of a frame that is not "
     "complete (3.12+): FRAME_OWNED_BY_CSTACK, the shim frame below an entry "
     "frame; FRAME_OWNED_BY_INTERPRETER, below CSTACK, in 3.14",
     ["(long)FRAME_OWNED_BY_INTERPRETER", "(long)FRAME_OWNED_BY_CSTACK"],
     None),
    ("co_filename", "PyCodeObject.co_filename", [off(CO, "co_filename")],
     None),
    ("co_name", "PyCodeObject.co_name", [off(CO, "co_name")], None),
    ("co_qualname", "PyCodeObject.co_qualname (3.11+)",
     [off(CO, "co_qualname")], None),
    ("co_firstlineno", "PyCodeObject.co_firstlineno (int)",
     [off(CO, "co_firstlineno")], None),
    ("co_lnotab", "PyCodeObject.co_lnotab (bytes, 3.8-3.9)",
     [off(CO, "co_lnotab")], None),
    ("co_linetable", "PyCodeObject.co_linetable (bytes, 3.10+)",
     [off(CO, "co_linetable")], None),
    ("co_code", "PyCodeObject.co_code (bytes *, 3.8-3.10)",
     [off(CO, "co_code")], None),
    ("co_code_adaptive", "PyCodeObject.co_code_adaptive: the code units "
     "start inside the code object (3.11+)",
     [off(CO, "co_code_adaptive")], None),
    ("co_tlbc", "PyCodeObject.co_tlbc (struct _PyCodeArray *: each "
     "thread's copy of the code units, free-threaded 3.14; from the debug "
     "offsets)",
     [off(CO, "co_tlbc")], None),
    ("unicode_length", "PyASCIIObject.length", [off("PyASCIIObject",
                                                    "length")], None),
    ("unicode_state", "PyASCIIObject.state (a 32-bit word of bit-fields)",
     [off("PyASCIIObject", "state")], None),
    ("unicode_ascii_data", "sizeof(PyASCIIObject): the characters of a "
     "compact ASCII string",
     ["(long)sizeof(PyASCIIObject)"], None),
    ("unicode_compact_data", "sizeof(PyCompactUnicodeObject): the "
     "characters of a compact non-ASCII string",
     ["(long)sizeof(PyCompactUnicodeObject)"], None),
    ("bytes_ob_size", "PyBytesObject.ob_base.ob_size",
     [off("PyBytesObject", "ob_base.ob_size")], None),
    ("bytes_ob_sval", "PyBytesObject.ob_sval", [off("PyBytesObject",
                                                    "ob_sval")], None),
    # Thread names: sys.modules["threading"]._active[ident]._name.
    ("interp_modules", "PyInterpreterState.imports.modules (sys.modules; "
     "modules before 3.12)",
     [off(IS, "imports.modules"), off(IS, "modules")], None),
    ("object_ob_type", "PyObject.ob_type", [off("PyObject", "ob_type")],
     None),
    ("type_tp_flags", "PyTypeObject.tp_flags (unsigned long)",
     [off(TY, "tp_flags")], None),
    ("type_tp_basicsize", "PyTypeObject.tp_basicsize",
     [off(TY, "tp_basicsize")], None),
    ("type_tp_dictoffset", "PyTypeObject.tp_dictoffset (the instance "
     "dict's place, 3.8-3.10)",
     [off(TY, "tp_dictoffset")], None),
    ("heaptype_cached_keys", "PyHeapTypeObject.ht_cached_keys (the keys "
     "its instances' attribute values share)",
     [off("PyHeapTypeObject", "ht_cached_keys")], None),
    ("module_md_dict", "PyModuleObject.md_dict",
     [off("PyModuleObject", "md_dict")], None),
    ("dict_ma_keys", "PyDictObject.ma_keys", [off(DO, "ma_keys")], None),
    ("dict_ma_values", "PyDictObject.ma_values (split tables)",
     [off(DO, "ma_values")], None),
    ("dk_size", "PyDictKeysObject.dk_size (Py_ssize_t, 3.8-3.10)",
     [off(DK, "dk_size")], None),
    ("dk_log2_size", "PyDictKeysObject.dk_log2_size (uint8_t, 3.11+)",
     [off(DK, "dk_log2_size")], None),
    ("dk_log2_index_bytes", "PyDictKeysObject.dk_log2_index_bytes "
     "(uint8_t, 3.11+)",
     [off(DK, "dk_log2_index_bytes")], None),
    ("dk_kind", "PyDictKeysObject.dk_kind (uint8_t, 3.11+)",
     [off(DK, "dk_kind")], None),
    ("dk_nentries", "PyDictKeysObject.dk_nentries",
     [off(DK, "dk_nentries")], None),
    ("dk_indices", "PyDictKeysObject.dk_indices: the hash index, then the "
     "entries", [off(DK, "dk_indices")], None),
    ("dict_keys_general", "value of DICT_KEYS_GENERAL (3.11+): keys of "
     "that kind have PyDictKeyEntry entries, the others "
     "PyDictUnicodeEntry", ["(long)DICT_KEYS_GENERAL"], None),
    ("dict_entry_size", "sizeof(PyDictKeyEntry)", ["(long)sizeof(%s)" % DE],
     None),
    ("dict_entry_key", "PyDictKeyEntry.me_key", [off(DE, "me_key")], None),
    ("dict_entry_value", "PyDictKeyEntry.me_value", [off(DE, "me_value")],
     None),
    ("dict_unicode_entry_size", "sizeof(PyDictUnicodeEntry) (3.11+)",
     ["(long)sizeof(%s)" % DU], None),
    ("dict_unicode_entry_key", "PyDictUnicodeEntry.me_key (3.11+)",
     [off(DU, "me_key")], None),
    ("dict_unicode_entry_value", "PyDictUnicodeEntry.me_value (3.11+)",
     [off(DU, "me_value")], None),
    ("dictvalues_values", "PyDictValues.values (3.11+; before, ma_values "
     "is the array itself)", [off(DV, "values")], None),
    ("dictvalues_valid", "PyDictValues.valid (uint8_t, 3.13+: the inline "
     "values are in use)", [off(DV, "valid")], None),
    ("long_ob_size", "PyLongObject.ob_base.ob_size (digits, negative for "
     "a negative int; 3.8-3.11)", [off(LO, "ob_base.ob_size")], None),
    ("long_lv_tag", "PyLongObject.long_value.lv_tag (digits << 3 | sign, "
     "3.12+)", [off(LO, "long_value.lv_tag")], None),
    ("long_ob_digit", "PyLongObject.ob_digit (long_value.ob_digit in "
     "3.12+)", [off(LO, "ob_digit"), off(LO, "long_value.ob_digit")], None),
    ("long_digit_size", "sizeof(digit): 4 for 30-bit digits, 2 for 15-bit",
     ["(long)sizeof(digit)"], None),
]

# Bit positions inside PyASCIIObject.state, read from 'ptype /o'.
STATE_BITS = [
    ("unicode_state_kind_shift", "unicode_state_kind_width", "kind"),
    ("unicode_state_compact_bit", None, "compact"),
    ("unicode_state_ascii_bit", None, "ascii"),
    ("unicode_state_ready_bit", None, "ready"),
]

MARK = "@@rootcause@@"


def pyenv_root():
    try:
        out = subprocess.run(["pyenv", "root"], capture_output=True,
                             text=True, check=True).stdout.strip()
        if out:
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    return os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")


def patch_key(path):
    m = re.search(r"/3\.\d+\.(\d+)$", path)
    return int(m.group(1)) if m else -1


def find_interpreter(root, minor, ft=False):
    """Newest release 3.MINOR.N under ROOT (no -dev, -debug), or with FT its
    free-threaded build 3.MINOR.Nt."""
    t = "t" if ft else ""
    dirs = [d for d in glob.glob(os.path.join(root, "versions",
                                              "3.%d.*" % minor))
            if re.search(r"/3\.%d\.\d+%s$" % (minor, t), d)]
    for d in sorted(dirs, key=patch_key, reverse=True):
        for rel in ("lib/libpython3.%d%s.so.1.0" % (minor, t),
                    "lib/libpython3.%d%s.so" % (minor, t),
                    "bin/python3.%d%s" % (minor, t)):
            p = os.path.join(d, rel)
            if os.path.isfile(p):
                return os.path.basename(d), p
    return None, None


def gdb_commands():
    """The -ex arguments: one marker and one printf per candidate."""
    cmds = []
    for name, _, cands, _ in FIELDS:
        for i, expr in enumerate(cands):
            cmds.append("echo %s %s %d\\n" % (MARK, name, i))
            cmds.append('printf "%%ld\\n", %s' % expr)
    cmds.append("echo %s ptype 0\\n" % MARK)
    cmds.append("ptype /o PyASCIIObject")
    return cmds


def run_gdb(binary):
    argv = ["gdb", "-nx", "-batch"]
    for c in gdb_commands():
        argv += ["-ex", c]
    argv.append(binary)
    # One pipe for both streams keeps each error after its marker.
    out = subprocess.run(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         env=dict(os.environ, LC_ALL="C")).stdout
    sections = {}
    key = None
    for line in out.splitlines():
        if line.startswith(MARK + " "):
            _, name, i = line.split()
            key = (name, int(i))
            sections[key] = []
        elif key is not None:
            sections[key].append(line)
    return sections


def read_layout(binary):
    """Returns (values, reasons): field -> int, field -> why it is -1."""
    sec = run_gdb(binary)
    values, reasons = {}, {}
    for name, _, cands, requires in FIELDS:
        why = []
        for i in range(len(cands)):
            lines = [l.strip() for l in sec.get((name, i), []) if l.strip()]
            if len(lines) == 1 and re.fullmatch(r"-?\d+", lines[0]):
                values[name] = int(lines[0])
                break
            msg = " ".join(lines) or "no output from gdb"
            if msg not in why:
                why.append(msg)
        else:
            values[name] = -1
            reasons[name] = "; ".join(why)
        if requires and values.get(requires, -1) < 0 and values[name] >= 0:
            values[name] = -1
            reasons[name] = "frames are not chained through it (no %s)" \
                % requires
    bits = {}
    for line in sec.get(("ptype", 0), []):
        # /*     32: 2   |       4 */        unsigned int kind : 3;
        # A free-threaded build keeps 'interned' in a byte of its own:
        # /*     49: 0   |       4 */        unsigned int kind : 3;
        # the bit counts from the state word's first byte.
        m = re.match(r"/\*\s*(\d+):\s*(\d+)\s*\|\s*\d+\s*\*/.*?(\w+)\s*:"
                     r"\s*(\d+);", line)
        if m and values["unicode_state"] >= 0:
            at = 8 * (int(m.group(1)) - values["unicode_state"])
            bits[m.group(3)] = (at + int(m.group(2)), int(m.group(4)))
    for shift, width, member in STATE_BITS:
        if member in bits:
            values[shift] = bits[member][0]
            if width:
                values[width] = bits[member][1]
        else:
            why = "no bit-field '%s' in PyASCIIObject.state" % member
            for f in (shift, width):
                if f:
                    values[f] = -1
                    reasons[f] = why
    return values, reasons


def all_fields():
    names = [(n, c) for n, c, _, _ in FIELDS]
    comments = {
        "unicode_state_kind_shift": "first bit of state.kind",
        "unicode_state_kind_width": "bits of state.kind (1, 2 or 4 bytes "
                                    "per character)",
        "unicode_state_compact_bit": "bit of state.compact",
        "unicode_state_ascii_bit": "bit of state.ascii",
        "unicode_state_ready_bit": "bit of state.ready (3.8-3.11)",
    }
    for shift, width, _ in STATE_BITS:
        names.append((shift, comments[shift]))
        if width:
            names.append((width, comments[width]))
    return names


def emit(rows):
    fields = all_fields()
    o = []
    o.append("/* Generated by tools/gen-python-layouts.py: do not edit. */")
    o.append("/* CPython struct offsets (bytes, x86_64 release builds) for a "
             "reader of\n * Python frames in a core or a live process, one "
             "row per minor version,\n * read from the DWARF of pyenv's "
             "shared builds with gdb:\n *")
    for c in gdb_commands():
        if c.startswith("echo"):
            continue
        o.append(" *   gdb -nx -batch -ex '%s' LIBPYTHON"
                 % c.replace("*/", "* /"))
    o.append(" *\n * -1: the field does not exist in that version, or "
             "does not mean there\n * what its comment says; the row's "
             "comment gives gdb's reason.\n *\n"
             " * Holds a static array: include it from the one file that "
             "reads frames. */")
    o.append("#ifndef RC_CRASH_PYTHON_LAYOUTS_H")
    o.append("#define RC_CRASH_PYTHON_LAYOUTS_H")
    o.append("")
    o.append("struct py_layout {")
    o.append("\tint major, minor;")
    o.append("\tint free_threaded;\t/* a build without the GIL (3.X.Nt) */")
    for n, c in fields:
        o.append("\tint %s;\t/* %s */" % (n, c))
    o.append("};")
    o.append("")
    o.append("static const struct py_layout py_layouts[] = {")
    for version, binary, values, reasons in rows:
        major, minor = (int(x) for x in version.split(".")[:2])
        ft = 1 if version.endswith("t") else 0
        o.append("\t/* %s: %s */" % (version, binary))
        missing = [(n, reasons[n]) for n, _ in fields if n in reasons]
        if missing:
            o.append("\t/* -1:")
            for n, why in missing:
                o.append("\t *   %s: %s" % (n, why.replace("*/", "* /")))
            o.append("\t */")
        o.append("\t{ .major = %d, .minor = %d, .free_threaded = %d," %
                 (major, minor, ft))
        for n, _ in fields:
            o.append("\t  .%s = %d," % (n, values[n]))
        o.append("\t},")
    o.append("};")
    o.append("")
    o.append("#endif")
    return "\n".join(o) + "\n"


# Run by each interpreter with its row (--check): walks the structures from
# _PyRuntime as a reader of a core would, and compares what it finds with
# what the interpreter itself says about the running frame.
CHECKER = r"""
import ctypes, json, sys, threading
L = json.loads(sys.argv[1])
P = ctypes.c_void_p
def ptr(a, o):
    return P.from_address(a + o).value or 0
def i32(a, o):
    return ctypes.c_int.from_address(a + o).value
def ulong(a, o):
    return ctypes.c_ulong.from_address(a + o).value
def ascii(o):
    st = ctypes.c_uint.from_address(o + L["unicode_state"]).value
    assert (st >> L["unicode_state_ascii_bit"]) & 1, "not ascii"
    assert (st >> L["unicode_state_compact_bit"]) & 1, "not compact"
    assert (st >> L["unicode_state_kind_shift"]) & 7 == 1, "kind"
    n = ctypes.c_ssize_t.from_address(o + L["unicode_length"]).value
    return ctypes.string_at(o + L["unicode_ascii_data"], n).decode()
def bytes_at(o):
    n = ctypes.c_ssize_t.from_address(o + L["bytes_ob_size"]).value
    return ctypes.string_at(o + L["bytes_ob_sval"], n)
def check_code(code, co):
    assert code == id(co), "code object"
    assert ascii(ptr(code, L["co_name"])) == co.co_name, "co_name"
    assert ascii(ptr(code, L["co_filename"])) == co.co_filename
    assert i32(code, L["co_firstlineno"]) == co.co_firstlineno
    if L["co_qualname"] >= 0:
        assert ascii(ptr(code, L["co_qualname"])) == co.co_qualname
    if L["co_linetable"] >= 0:
        assert bytes_at(ptr(code, L["co_linetable"])) == co.co_linetable
    if L["co_lnotab"] >= 0:
        assert bytes_at(ptr(code, L["co_lnotab"])) == co.co_lnotab
    if L["co_code"] >= 0:
        assert bytes_at(ptr(code, L["co_code"])) == co.co_code
def here():
    f = sys._getframe(1)
    rt = ctypes.addressof(ctypes.c_char.in_dll(ctypes.pythonapi,
                                               "_PyRuntime"))
    interp = ptr(rt, L["runtime_interpreters_head"])
    assert interp == ptr(rt, L["runtime_interpreters_main"])
    assert ptr(interp, L["interp_next"]) == 0, "one interpreter"
    ts = ptr(interp, L["interp_threads_head"])
    while ts:
        if L["tstate_native_thread_id"] >= 0:
            if ulong(ts, L["tstate_native_thread_id"]) == \
                    threading.get_native_id():
                break
        elif ulong(ts, L["tstate_thread_id"]) == threading.get_ident():
            break
        ts = ptr(ts, L["tstate_next"])
    assert ts, "thread not found"
    assert ulong(ts, L["tstate_thread_id"]) == threading.get_ident()
    assert ptr(ts, L["tstate_interp"]) == interp
    if L["free_threaded"]:
        pass    # no GIL is held
    elif L["runtime_gil_last_holder"] >= 0:
        assert ptr(rt, L["runtime_gil_last_holder"]) == ts, "gil holder"
        assert i32(rt, L["runtime_gil_locked"]) == 1
    else:
        gil = ptr(interp, L["interp_ceval_gil"])
        assert ptr(gil, L["gil_last_holder"]) == ts, "gil holder"
        assert i32(gil, L["gil_locked"]) == 1
    frames = 0
    if L["tstate_frame"] >= 0:
        # Read inline: inside ptr() the top frame would be ptr's.  The
        # frame of here() is the top one; f is its caller.
        fr = P.from_address(ts + L["tstate_frame"]).value
        fr = ptr(fr, L["frame_f_back"])
        assert fr == id(f), "frame object"
        while fr and f:
            check_code(ptr(fr, L["frame_f_code"]), f.f_code)
            lasti = i32(fr, L["frame_f_lasti"])
            assert lasti * (2 if sys.version_info >= (3, 10) else 1) \
                == f.f_lasti, "f_lasti"
            fr, f = ptr(fr, L["frame_f_back"]), f.f_back
            frames += 1
        assert not fr and not f
    else:
        if L["tstate_current_frame"] >= 0:
            fr = P.from_address(ts + L["tstate_current_frame"]).value
        else:
            cf = ptr(ts, L["tstate_cframe"])
            fr = P.from_address(cf + L["cframe_current_frame"]).value
        fr = ptr(fr, L["iframe_previous"])
        cstack = 0
        while fr:
            if L["frame_owned_by_cstack"] >= 0 and ctypes.c_byte.from_address(
                    fr + L["iframe_owner"]).value >= L["frame_owned_by_cstack"]:
                cstack += 1
                fr = ptr(fr, L["iframe_previous"])
                continue
            # 3.14's f_executable is a stack reference: a tag bit.
            code = ptr(fr, L["iframe_code"]) & ~7
            check_code(code, f.f_code)
            base = code + L["co_code_adaptive"]
            # A free-threaded 3.14's thread may run its own copy of the
            # code units (co_tlbc->entries[tlbc_index]).
            if L["iframe_tlbc_index"] >= 0 and i32(fr, L["iframe_tlbc_index"]):
                base = ptr(ptr(code, L["co_tlbc"]),
                           8 + 8 * i32(fr, L["iframe_tlbc_index"]))
            units = ptr(fr, L["iframe_prev_instr"]) - base
            assert units == f.f_lasti, "prev_instr"
            if L["iframe_is_entry"] >= 0:
                assert ctypes.c_byte.from_address(
                    fr + L["iframe_is_entry"]).value in (0, 1)
            fr, f = ptr(fr, L["iframe_previous"]), f.f_back
            frames += 1
        assert not f
        assert L["frame_owned_by_cstack"] < 0 or cstack, "no entry shim"
    return frames, check_names(interp)
# Thread names as a reader finds them: sys.modules -> "threading" ->
# _active (ident -> Thread) -> each Thread's _name, with the dict, int and
# instance attribute layouts of this version.
TPF_LONG, TPF_UNICODE, TPF_DICT = 1 << 24, 1 << 28, 1 << 29
TPF_INLINE_VALUES, TPF_MANAGED_DICT = 1 << 2, 1 << 4
def u8(a, o):
    return ctypes.c_ubyte.from_address(a + o).value
def ssize(a, o):
    return ctypes.c_ssize_t.from_address(a + o).value
def flags(o):
    return ulong(ptr(o, L["object_ob_type"]), L["type_tp_flags"])
def entries(keys, values):
    # (key, value) addresses of a dict's keys object; VALUES: its split
    # values (PyDictValues *, or the array itself before 3.11) or 0.
    if L["dk_size"] >= 0:
        size = ssize(keys, L["dk_size"])
        ix = 1 if size <= 0xff else 2 if size <= 0xffff else \
            4 if size <= 0xffffffff else 8
        at = keys + L["dk_indices"] + size * ix
        general = True
    else:
        at = keys + L["dk_indices"] + (1 << u8(keys, L["dk_log2_index_bytes"]))
        general = u8(keys, L["dk_kind"]) == L["dict_keys_general"]
    if general:
        es, ek, ev = (L["dict_entry_size"], L["dict_entry_key"],
                      L["dict_entry_value"])
    else:
        es, ek, ev = (L["dict_unicode_entry_size"],
                      L["dict_unicode_entry_key"],
                      L["dict_unicode_entry_value"])
    vat = max(L["dictvalues_values"], 0)
    for i in range(ssize(keys, L["dk_nentries"])):
        k = ptr(at + i * es, ek)
        v = ptr(values, vat + 8 * i) if values else ptr(at + i * es, ev)
        if k and v:
            yield k, v
def items(d):
    assert flags(d) & TPF_DICT, "not a dict"
    return entries(ptr(d, L["dict_ma_keys"]), ptr(d, L["dict_ma_values"]))
def lookup(d, name):
    for k, v in items(d):
        if flags(k) & TPF_UNICODE and ascii(k) == name:
            return v
    return 0
def read_int(o):
    assert flags(o) & TPF_LONG, "not an int"
    if L["long_lv_tag"] >= 0:
        tag = ulong(o, L["long_lv_tag"])
        n, neg = tag >> 3, (tag & 3) == 2
    else:
        n = ssize(o, L["long_ob_size"])
        n, neg = abs(n), n < 0
    bits = 30 if L["long_digit_size"] == 4 else 15
    dig = ctypes.c_uint32 if L["long_digit_size"] == 4 else ctypes.c_uint16
    v = 0
    for i in range(n):
        v |= dig.from_address(o + L["long_ob_digit"] +
                              i * L["long_digit_size"]).value << (bits * i)
    return -v if neg else v
def attribute(obj, name):
    tp = ptr(obj, L["object_ob_type"])
    fl = ulong(tp, L["type_tp_flags"])
    cached = ptr(tp, L["heaptype_cached_keys"])
    if sys.version_info < (3, 11):
        d = ptr(obj, ssize(tp, L["type_tp_dictoffset"]))
    elif sys.version_info < (3, 12):
        assert fl & TPF_MANAGED_DICT
        values, d = ptr(obj, -32), ptr(obj, -24)
        if values:
            return dict((ascii(k), v) for k, v in
                        entries(cached, values)).get(name, 0)
    elif sys.version_info < (3, 13):
        assert fl & TPF_MANAGED_DICT
        dorv = ptr(obj, -24)
        if dorv & 1:
            return dict((ascii(k), v) for k, v in
                        entries(cached, dorv + 1)).get(name, 0)
        d = dorv
    else:
        assert fl & TPF_MANAGED_DICT
        values = obj + ssize(tp, L["type_tp_basicsize"])
        if fl & TPF_INLINE_VALUES and u8(values, L["dictvalues_valid"]):
            return dict((ascii(k), v) for k, v in
                        entries(cached, values)).get(name, 0)
        # MANAGED_DICT_OFFSET: a free-threaded build keeps no GC header
        # before its objects.
        d = ptr(obj, -8 if L["free_threaded"] else -24)
    return lookup(d, name)
def check_names(interp):
    mods = ptr(interp, L["interp_modules"])
    assert mods == id(sys.modules), "sys.modules"
    mod = lookup(mods, "threading")
    assert mod == id(threading), "threading"
    md = ptr(mod, L["module_md_dict"])
    assert md == id(threading.__dict__), "md_dict"
    active = lookup(md, "_active")
    assert active == id(threading._active), "_active"
    seen = {}
    for k, v in items(active):
        seen[read_int(k)] = ascii(attribute(v, "_name"))
    want = dict((i, t.name) for i, t in threading._active.items())
    assert seen == want, "names %r, threading says %r" % (seen, want)
    assert len(seen) == 3, "names %r" % seen
    return len(seen)
def outer():
    return here()
# Threads whose attributes sit in both places: values shared with the
# type's keys, and (for vars()) a dict of their own.
stop = threading.Event()
workers = [threading.Thread(target=stop.wait, name=n)
           for n in ("checker-values", "checker-dict")]
for w in workers:
    w.start()
vars(workers[1])
try:
    print("ok: %d frames, %d thread names" % outer())
finally:
    stop.set()
"""


def check(binary_dir, minor, values, ft=False):
    """Runs the interpreter with CHECKER; returns (ok, message)."""
    exe = os.path.join(binary_dir, "bin",
                       "python3.%d%s" % (minor, "t" if ft else ""))
    r = subprocess.run([exe, "-c", CHECKER,
                        json.dumps(dict(values, free_threaded=ft))],
                       capture_output=True, text=True)
    msg = (r.stdout + r.stderr).strip().splitlines()
    return r.returncode == 0, msg[-1] if msg else "no output"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = sys.argv[1:]
    do_check = "--check" in args
    args = [a for a in args if a != "--check"]
    out = args[0] if args else \
        os.path.join(here, "..", "src", "crash", "python_layouts.h")
    failed = 0
    root = pyenv_root()
    rows = []
    for minor, ft in [(m, False) for m in MINORS] + \
            [(m, True) for m in FREE_THREADED_MINORS]:
        version, binary = find_interpreter(root, minor, ft)
        if binary is None and ft:
            continue    # few have one: no message
        if binary is None:
            print("gen-python-layouts: skipping 3.%d: no interpreter under "
                  "'%s'" % (minor, os.path.join(root, "versions")),
                  file=sys.stderr)
            continue
        values, reasons = read_layout(binary)
        if values["runtime_interpreters_head"] < 0:
            print("gen-python-layouts: skipping 3.%d: no DWARF for "
                  "_PyRuntimeState in '%s': %s" % (
                      minor, binary, reasons["runtime_interpreters_head"]),
                  file=sys.stderr)
            continue
        if do_check:
            ok, msg = check(os.path.join(root, "versions", version), minor,
                            values, ft)
            print("gen-python-layouts: check %s: %s" % (version, msg),
                  file=sys.stderr)
            failed += not ok
        # Paths relative to the pyenv root: the header must not depend on
        # where the generator ran.
        rows.append((version, os.path.relpath(binary, root), values,
                     reasons))
    if not rows:
        print("gen-python-layouts: no interpreter found", file=sys.stderr)
        return 1
    if failed:
        print("gen-python-layouts: %d version(s) failed the check, "
              "'%s' not written" % (failed, out), file=sys.stderr)
        return 1
    text = emit(rows)
    with open(out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
