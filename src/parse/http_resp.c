/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/http_resp.h"

#include <string.h>

int http_resp_split(const char *buf, size_t len, const char **body, size_t *blen)
{
	*body = NULL;
	*blen = 0;
	/* "HTTP/1.1 200 OK" (RFC 9112 section 4: status-line) */
	if (!buf || len < 12 || memcmp(buf, "HTTP/1.", 7) || buf[8] != ' ')
		return -1;
	int code = 0;
	for (int i = 9; i < 12; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -1;
		code = code * 10 + (buf[i] - '0');
	}
	if (code < 100 || code > 599)
		return -1;
	for (size_t i = 12; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		size_t j = i + 1;
		if (j < len && buf[j] == '\r')
			j++;
		if (j < len && buf[j] == '\n') {
			*body = buf + j + 1;
			*blen = len - j - 1;
			return code;
		}
	}
	return -1;
}
