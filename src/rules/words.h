/* What the program said: its output lines (the process model keeps the
 * recent ones), whether a line reads as an error, and whether it names a
 * finding's subject. The rules that weigh a failure by the program's own
 * report of it, and the ranking and linking, read them the same way. */
#ifndef RC_RULES_WORDS_H
#define RC_RULES_WORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "event/procs.h"
#include "rules/finding.h"

/* WORD, a name (a file, a host, an address), occurs in TEXT as a whole
 * word, whatever its case: no file-name character is glued to it, nor a
 * '.' before it ("x.conf" does not name "conf"); a '.' after it may end a
 * sentence ("missing foo." names foo, "foo.py" does not). */
bool rule_names_word(const char *text, const char *word);

/* TEXT names F's subject: one of F's echo words (a phrase anywhere, a
 * name as a whole word; with NAMES_ONLY, names only). */
bool rule_text_echoes(const struct rc_finding *f, const char *text, bool names_only);

/* Whether output line O counts as something the program said. What went
 * to /dev/null was meant to be hidden ("enable -f x.so 2>/dev/null ||
 * fallback", "ls x 2>/dev/null; true"), unless the program that wrote it
 * failed and took the whole run with it: a service started with
 * 2>/dev/null still says why it died, and only the trace saw it. A
 * program that went on to exec another did not fail (pyenv's script
 * before the python it runs). */
bool rule_output_counts(const struct rc_procs *m, const struct rc_output *o);

/* Output line O reads as an error report: on stderr, any of the error
 * words ("error", "cannot ", "no such file"...); on stdout, which carries
 * results, only a line that starts like one ("Error: ...") or says
 * " failed". */
bool rule_error_line(const struct rc_output *o);

/* The last line of the program's output (the process model keeps the
 * recent ones) written after SEQ that names WORD, a file name, as a whole
 * word: "re" is not named by "most recent call", nor "time.py" by
 * "time.pyc". Only lines that count (rule_output_counts). NULL when
 * none did. */
const char *rule_output_naming(const struct rc_procs *m, const char *word, uint64_t seq);

#endif
