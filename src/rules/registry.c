#include "rules/rule.h"

#include <string.h>

#include "util/util.h"

const struct rc_rule rc_rules[] = {
#define RULE(name, id, source, severity, doc) { id, source, severity, doc, &rc_rule_##name##_ops },
#include "rules/rules.def"
#undef RULE
};

const size_t rc_nrules = ARRAY_SIZE(rc_rules);

const struct rc_rule *rule_find(const char *id)
{
	for (size_t i = 0; i < rc_nrules; i++)
		if (strcmp(rc_rules[i].id, id) == 0)
			return &rc_rules[i];
	return NULL;
}
