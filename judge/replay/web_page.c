/* web_page.c - a service page made self-contained, its data embedded. */
#include "judge/replay/web_page.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "judge/base/file_write.h"

#define STATIC_DIR "serve/" /* where web/ keeps what the service calls /static/ */

/* Nothing from outside: the inlined styles and scripts, data: images. */
static const char page_policy[] =
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n";

/* A reference in the template and what replaces it. */
static const struct inlined {
	const char *mark, *close, *open_tag, *close_tag;
} inlined[] = {
	{ "<link rel=\"stylesheet\" href=\"/static/", ">", "<style>\n", "</style>" },
	{ "<script src=\"/static/", "</script>", "<script>\n", "</script>" },
};

const char *web_file(const char *name)
{
	for (const struct web_file *f = web_files; f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f->text;
	return NULL;
}

void web_json_escaped(FILE *f, const char *json)
{
	for (const char *p = json; *p; p++) {
		if (*p == '<' || *p == '>' || *p == '&')
			fprintf(f, "\\u%04x", (unsigned char)*p);
		else
			fputc(*p, f);
	}
}

bool web_script_safe(const char *text)
{
	for (const char *p = strchr(text, '<'); p; p = strchr(p + 1, '<'))
		if (strncasecmp(p, "</script", 8) == 0)
			return false;
	return true;
}

static int put_data(FILE *f, const json_t *data)
{
	char *json = json_dumps(data, JSON_COMPACT);
	if (!json)
		return -1;
	fputs(page_policy, f);
	fputs("<script type=\"application/json\" id=\"page-data\">", f);
	web_json_escaped(f, json);
	fputs("</script>\n", f);
	free(json);
	return 0;
}

/* The earliest reference at or after s, or NULL. */
static const char *next_inlined(const char *s, const struct inlined **which)
{
	const char *best = NULL;
	for (size_t i = 0; i < sizeof inlined / sizeof *inlined; i++) {
		const char *p = strstr(s, inlined[i].mark);
		if (p && (!best || p < best)) {
			best = p;
			*which = &inlined[i];
		}
	}
	return best;
}

/* Replaces the reference at `at` with the file's text; where the template
 * goes on into *next. */
static int put_inlined(FILE *f, const struct inlined *w, const char *at, const char **next,
		       err_t err)
{
	const char *name = at + strlen(w->mark);
	size_t n = strcspn(name, "\"");
	const char *end = strstr(name + n, w->close);
	char path[128];
	if (!end || n >= sizeof path - sizeof STATIC_DIR) {
		err_set(err, "the page's template is damaged near \"%.40s\"", at);
		return -1;
	}
	snprintf(path, sizeof path, STATIC_DIR "%.*s", (int)n, name);
	const char *text = web_file(path);
	if (!text || !web_script_safe(text)) {
		err_set(err, "web/%s %s", path,
			 text ? "holds \"</script\": it cannot be inlined" : "was not built in");
		return -1;
	}
	fprintf(f, "%s%s%s", w->open_tag, text, w->close_tag);
	*next = end + strlen(w->close);
	return 0;
}

struct embedding {
	const char *tpl;
	const json_t *data;
};

static int put_page(FILE *f, const void *arg, struct err *err)
{
	const struct embedding *e = arg;
	const char *head = strstr(e->tpl, "<head>\n");
	if (!head) {
		err_set(err, "the page's template has no <head>");
		return -1;
	}
	head += strlen("<head>\n");
	fwrite(e->tpl, 1, (size_t)(head - e->tpl), f);
	if (put_data(f, e->data) < 0) {
		err_set(err, "cannot encode the page's data (out of memory?)");
		return -1;
	}
	const char *s = head, *at;
	const struct inlined *w;
	while ((at = next_inlined(s, &w))) {
		fwrite(s, 1, (size_t)(at - s), f);
		if (put_inlined(f, w, at, &s, err) < 0)
			return -1;
	}
	fputs(s, f);
	return 0;
}

int web_page_build(int (*put)(FILE *f, const void *arg, struct err *err), const void *arg,
		   char **page, size_t *len, struct err *err)
{
	FILE *f = open_memstream(page, len);
	if (!f) {
		err_set(err, "cannot build the page: %s", strerror(errno));
		return -1;
	}
	int rc = put(f, arg, err);
	if (fclose(f) != 0 && rc == 0) {
		err_set(err, "cannot build the page: out of memory");
		rc = -1;
	}
	if (rc < 0) {
		free(*page);
		*page = NULL;
	}
	return rc;
}

int web_page_embed(const char *name, const json_t *data, char **page, size_t *len,
		   err_t err)
{
	struct embedding e = { web_file(name), data };
	if (!e.tpl) {
		err_set(err, "the page web/%s was not built in", name);
		return -1;
	}
	return web_page_build(put_page, &e, page, len, err);
}

int web_page_write(const char *path, const char *name, const json_t *data,
		   err_t err)
{
	char *page;
	size_t len;
	if (web_page_embed(name, data, &page, &len, err) < 0)
		return -1;
	int rc = file_write_whole(path, page, len, 0644, err);
	free(page);
	return rc;
}
