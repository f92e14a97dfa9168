/* url.c - what of a dashboard URL may be shown (http.h); apart from http.c, which fuzz_remote replaces. */
#include <string.h>

#include "txc/http.h"
#include "txc/util.h"

/*
 * What of a URL may be printed: scheme://host:port/path.  The user info
 * (user:password@) and the query and fragment (?token=…) can hold
 * credentials, so they never reach a message.
 */
char *txc_http_url_shown(const char *url)
{
	const char *scheme = strstr(url, "://");
	size_t end = strcspn(url, "?#");
	if (scheme == NULL || (size_t)(scheme - url) > end)
		return txc_xstrndup(url, end);
	const char *host = scheme + 3;
	size_t auth = strcspn(host, "/?#"); /* the authority: [userinfo@]host[:port] */
	for (size_t i = auth; i > 0; i--)
		if (host[i - 1] == '@') {
			host += i;
			break;
		}
	struct txc_buf b = TXC_BUF_INIT;
	txc_buf_add(&b, url, (size_t)(scheme + 3 - url));
	txc_buf_add(&b, host, (size_t)(url + end - host));
	return txc_buf_detach(&b, NULL);
}
