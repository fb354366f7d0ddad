/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the probe transcript parser on arbitrary bytes, plus
 * the invariants a caller relies on (NUL-terminated bodies, caps held,
 * unique names, lookups that agree with the table). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/transcript.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, (const char *)data, size);
	if (t.n > TRANSCRIPT_MAX_SECTIONS)
		abort();
	if (t.complete && !t.valid)
		abort();
	for (size_t i = 0; i < t.n; i++) {
		const struct section *s = &t.s[i];
		if (!s->name || !s->body || s->body[s->len] != '\0')
			abort();
		if (!transcript_name_valid(s->name, strlen(s->name)))
			abort();
		if (transcript_get(&t, s->name) != s)
			abort(); /* names are unique: the first wins */
		if (s->len && s->body[s->len - 1] != '\n')
			abort();
	}
	transcript_release(&t);
	return 0;
}
