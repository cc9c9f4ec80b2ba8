/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * libFuzzer target: the plugin's event_plugin_options parser
 * (plugin/options.c, OpenSM-free). Properties: a word is either used or
 * reported; the options format back into words that parse without a
 * problem to the same options.
 */
#include "fuzz.h"
#include "options.h"

static void count(void *arg, enum ibu_plugin_opt_problem what,
		  const char *word, const char *expected)
{
	(void)what;
	if (!word)
		fuzz_fail("problem reported without the word");
	(void)expected;
	++*(int *)arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibu_plugin_opts o, again;
	char *text = malloc(size + 1), buf[512], buf2[512];
	int reported = 0, problems;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';	/* OpenSM hands over a C string */
	ibu_plugin_opts_default(&o);
	problems = ibu_plugin_opts_parse(&o, text, count, &reported);
	free(text);
	if (problems < 0)
		return 0;
	if (problems != reported)
		fuzz_fail("%d problems returned, %d reported", problems, reported);
	ibu_plugin_opts_format(&o, buf, sizeof(buf));
	ibu_plugin_opts_default(&again);
	reported = 0;
	if (ibu_plugin_opts_parse(&again, buf, count, &reported) != 0)
		fuzz_fail("formatted options '%s' do not parse back", buf);
	ibu_plugin_opts_format(&again, buf2, sizeof(buf2));
	if (strcmp(buf, buf2))
		fuzz_fail("options '%s' parse back as '%s'", buf, buf2);
	return 0;
}
