/* SPDX-License-Identifier: Apache-2.0 */
/* Pieces of the JSON renderer that the SARIF renderer shares. */
#ifndef CI_RENDER_JSON_H
#define CI_RENDER_JSON_H

#include <jansson.h>

/* A JSON string for outside text (invalid UTF-8 bytes become '?'); NULL
 * gives JSON null. */
json_t *render_json_string(const char *s);
/* {"name": "check_interconnect", "version": CI_VERSION} */
json_t *render_json_tool(void);
/* The live section (render_json_live.c). */
struct ci_live;
json_t *render_json_live(const struct ci_live *l);

#endif
