/* A streaming JSON writer into a strbuf: the caller opens and closes
 * objects and arrays, and commas are placed for it. */
#ifndef RC_UTIL_JSON_H
#define RC_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

struct json {
	struct strbuf *out;
	int depth;
	bool need_comma[64];
	bool pretty;
	bool after_key;
	/* A '<' before '/' or '!' is written as \u003c, so that the JSON can
	 * sit inside an HTML <script> element ("</script>" in a string would
	 * end it, "<!--" change how the rest is read). Set after json_init. */
	bool script_safe;
};

void json_init(struct json *j, struct strbuf *out, bool pretty);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
/* A key inside an object; the next call writes its value. */
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_stringn(struct json *j, const char *s, size_t n);
void json_int(struct json *j, long long v);
void json_double(struct json *j, double v);
/* V with DIGITS digits after the point (times: "%.6g" would round 1234.5678). */
void json_fixed(struct json *j, double v, int digits);
/* A number the caller formatted (TEXT must be a JSON number). */
void json_number(struct json *j, const char *text);
void json_bool(struct json *j, bool v);
/* KEY and the string V, when V is not NULL. */
void json_opt_string(struct json *j, const char *key, const char *v);
/* KEY and an array of the N strings of V. */
void json_key_strings(struct json *j, const char *key, const char *const *v, size_t n);

#endif
