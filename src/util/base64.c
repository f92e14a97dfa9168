/* base64.c - strict standard base64 decoding (images carried as data: URIs) and encoding (CSP hashes). */
#include "txc/util.h"

static int value_of(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

bool txc_base64_decode(struct txc_buf *out, const char *p, size_t len)
{
	if (len % 4 != 0)
		return false;
	txc_buf_grow(out, len / 4 * 3);
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;
		for (int k = 0; k < 4; k++) {
			unsigned char c = (unsigned char)p[i + k];
			if (c == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			if (pad || (v[k] = value_of(c)) < 0)
				return false;
		}
		unsigned long w = (unsigned long)v[0] << 18 | (unsigned long)v[1] << 12 | (unsigned long)v[2] << 6 |
				  (unsigned long)v[3];
		txc_buf_addch(out, (char)(w >> 16));
		if (pad < 2)
			txc_buf_addch(out, (char)(w >> 8 & 0xff));
		if (pad < 1)
			txc_buf_addch(out, (char)(w & 0xff));
	}
	return true;
}

/* RFC 4648 base64 of p[0..n) with padding, appended to b */
void txc_base64_encode(struct txc_buf *b, const unsigned char *p, size_t n)
{
	static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? (unsigned)p[i + 2] : 0);
		txc_buf_addch(b, al[v >> 18 & 63]);
		txc_buf_addch(b, al[v >> 12 & 63]);
		txc_buf_addch(b, i + 1 < n ? al[v >> 6 & 63] : '=');
		txc_buf_addch(b, i + 2 < n ? al[v & 63] : '=');
	}
}
