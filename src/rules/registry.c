#include "rules/rule.h"

#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

/* A crash rule's judgement is crash/'s own (crash/rules.c). */
#define OPS_RC_RULE_TRACE(name) &rc_rule_##name##_ops
#define OPS_RC_RULE_TRACE_CRASH(name) &rc_rule_##name##_ops
#define OPS_RC_RULE_CAPTURE(name) &rc_rule_##name##_ops
#define OPS_RC_RULE_CRASH(name) NULL

const struct rc_rule rc_rules[] = {
#define RULE(name, id, source, severity, doc) { id, source, severity, doc, OPS_##source(name) },
#include "rules/rules.def"
#undef RULE
};

const size_t rc_nrules = ARRAY_SIZE(rc_rules);
_Static_assert(ARRAY_SIZE(rc_rules) <= 64, "a choice of rules (rule_pick) is a 64-bit mask");

const struct rc_rule *rule_find(const char *id)
{
	for (size_t i = 0; i < rc_nrules; i++)
		if (strcmp(rc_rules[i].id, id) == 0)
			return &rc_rules[i];
	return NULL;
}

int rule_pick(const char *opt, const char *expr, uint64_t *rules, struct strbuf *err)
{
	bool but = expr[0] == '!';
	uint64_t named = 0;
	const char *p = expr + but;

	for (;;) {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		while (i < rc_nrules && !(strlen(rc_rules[i].id) == n && strncmp(rc_rules[i].id, p, n) == 0))
			i++;
		if (!n) {
			strbuf_addf(err, "an empty rule id in %s '%s'", opt, expr);
			return -1;
		}
		if (i == rc_nrules) {
			strbuf_addf(err, "unknown rule '%.*s' in %s '%s' ('rootcause --help' lists them)",
				    (int)n, p, opt, expr);
			return -1;
		}
		named |= (uint64_t)1 << i;
		if (!p[n])
			break;
		p += n + 1;
	}
	*rules = but ? RC_RULES_ALL & ~named : named;
	return 0;
}
