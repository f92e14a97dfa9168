/*
 * fakecurl.c - a stand-in libcurl.so.4 for tests/cli/nocurl-tests.sh: what
 * --remote says on a machine whose libcurl cannot be used.  Built twice:
 * without FAKECURL_FULL it has none of libcurl's functions (a library of that
 * name that is not libcurl); with it, every function txc looks up, where
 * curl_global_init fails when FAKECURL_INIT_FAILS is set and curl_easy_init
 * always gives no handle.  Nothing else is ever called.
 */
#include <stdlib.h>

#ifdef FAKECURL_FULL
int curl_global_init(long flags);
void *curl_easy_init(void);
void curl_easy_reset(void *h);
int curl_easy_setopt(void *h, int option, ...);
int curl_easy_perform(void *h);
int curl_easy_getinfo(void *h, int info, ...);
void curl_easy_cleanup(void *h);
const char *curl_easy_strerror(int code);
void *curl_slist_append(void *list, const char *s);
void curl_slist_free_all(void *list);

int curl_global_init(long flags)
{
	(void)flags;
	return getenv("FAKECURL_INIT_FAILS") != NULL ? 2 : 0; /* CURLE_FAILED_INIT */
}

void *curl_easy_init(void)
{
	return NULL;
}

void curl_easy_reset(void *h)
{
	(void)h;
}

int curl_easy_setopt(void *h, int option, ...)
{
	(void)h;
	(void)option;
	return 0;
}

int curl_easy_perform(void *h)
{
	(void)h;
	return 2;
}

int curl_easy_getinfo(void *h, int info, ...)
{
	(void)h;
	(void)info;
	return 0;
}

void curl_easy_cleanup(void *h)
{
	(void)h;
}

const char *curl_easy_strerror(int code)
{
	(void)code;
	return "fake";
}

void *curl_slist_append(void *list, const char *s)
{
	(void)s;
	return list;
}

void curl_slist_free_all(void *list)
{
	(void)list;
}
#else
int fakecurl_is_not_libcurl(void);

int fakecurl_is_not_libcurl(void)
{
	return 1;
}
#endif
