/* Terminal-safe text (lsv_text_safe) and the messages that echo input:
 * what is escaped, what passes, how a cut ends; the readers' byte order
 * mark.  Expected strings are written by hand from the rules in lapsvm.h
 * (in C source "\\x1b" is the four characters \x1b of the safe text). */
#include <stdlib.h>

#include "lapsvm.h"
#include "unit.h"

/* The safe copy of in, in a buffer large enough (static: one at a time). */
static const char *safe(const char *in)
{
	static char out[256];
	size_t len = lsv_text_safe(out, sizeof out, in);
	CHECK(len == strlen(out));
	return out;
}

static void text_safe_keeps_printable_ascii_and_backslash(void)
{
	CHECK_STR(safe(""), "");
	CHECK_STR(safe("found '1:2x' in a b.txt"), "found '1:2x' in a b.txt");
	/* not doubled: a safe text is its own safe copy */
	CHECK_STR(safe("C:\\data\\x.txt \\x1b"), "C:\\data\\x.txt \\x1b");
	CHECK_STR(safe(" ~!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}"),
		  " ~!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}");
}

static void text_safe_escapes_c0_controls_and_del(void)
{
	CHECK_STR(safe("2\r3"), "2\\r3");
	CHECK_STR(safe("a\tb\nc"), "a\\tb\\nc");
	CHECK_STR(safe("\x1b[2J"), "\\x1b[2J");
	CHECK_STR(safe("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
	CHECK_STR(safe("\x01\x08\x0b\x0c\x1f\x7f"),
		  "\\x01\\x08\\x0b\\x0c\\x1f\\x7f");
}

static void text_safe_escapes_bytes_that_are_not_utf8(void)
{
	CHECK_STR(safe("\xff"), "\\xff");
	CHECK_STR(safe("\x80" "a"), "\\x80a");            /* lone continuation */
	CHECK_STR(safe("a\xc3"), "a\\xc3");               /* cut at the end */
	CHECK_STR(safe("\xc3" "("), "\\xc3(");            /* bad continuation */
	CHECK_STR(safe("\xe2\x82" "x"), "\\xe2\\x82x");   /* cut 3-byte form */
	CHECK_STR(safe("\xc0\xaf"), "\\xc0\\xaf");        /* overlong '/' */
	CHECK_STR(safe("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");  /* overlong */
	CHECK_STR(safe("\xed\xa0\x80"), "\\xed\\xa0\\x80");  /* surrogate */
	CHECK_STR(safe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  /* > U+10FFFF */
	CHECK_STR(safe("\xf8\x88\x80\x80\x80"),
		  "\\xf8\\x88\\x80\\x80\\x80");
	/* Latin-1 text: each byte not UTF-8 */
	CHECK_STR(safe("caf\xe9.txt"), "caf\\xe9.txt");
}

static void text_safe_passes_valid_utf8(void)
{
	CHECK_STR(safe("caf\xc3\xa9"), "caf\xc3\xa9");                 /* é */
	CHECK_STR(safe("\xe2\x82\xac" "5"), "\xe2\x82\xac" "5");       /* € */
	CHECK_STR(safe("\xe6\x97\xa5\xe6\x9c\xac"), "\xe6\x97\xa5\xe6\x9c\xac");
	CHECK_STR(safe("a\xf0\x9f\x98\x80z"), "a\xf0\x9f\x98\x80z");   /* U+1F600 */
	CHECK_STR(safe("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");       /* U+10FFFF */
	/* the neighbours of what is escaped pass */
	CHECK_STR(safe("\xc2\xa0"), "\xc2\xa0");          /* U+00A0 after C1 */
	CHECK_STR(safe("\xe2\x80\x8d"), "\xe2\x80\x8d");  /* U+200D ZWJ (emoji) */
	CHECK_STR(safe("\xe2\x80\xaf"), "\xe2\x80\xaf");  /* U+202F after RLO */
	CHECK_STR(safe("\xe2\x81\xaa"), "\xe2\x81\xaa");  /* U+206A after PDI */
	CHECK_STR(safe("\xef\xbb\xbe"), "\xef\xbb\xbe");  /* U+FEFE */
}

static void text_safe_escapes_c1_bom_and_bidi_controls(void)
{
	CHECK_STR(safe("\xc2\x80"), "\\xc2\\x80");        /* U+0080 */
	CHECK_STR(safe("\xc2\x9b" "2J"), "\\xc2\\x9b2J");  /* U+009B CSI */
	CHECK_STR(safe("\xc2\x9f"), "\\xc2\\x9f");        /* U+009F */
	CHECK_STR(safe("\xef\xbb\xbf" "1"), "\\xef\\xbb\\xbf1");  /* BOM */
	CHECK_STR(safe("a\xe2\x80\xae" "cba"), "a\\xe2\\x80\\xaecba");  /* RLO */
	CHECK_STR(safe("\xe2\x80\xaa"), "\\xe2\\x80\\xaa");  /* LRE */
	CHECK_STR(safe("\xe2\x81\xa6"), "\\xe2\\x81\\xa6");  /* LRI */
	CHECK_STR(safe("\xe2\x81\xa9"), "\\xe2\\x81\\xa9");  /* PDI */
	CHECK_STR(safe("\xe2\x80\x8e"), "\\xe2\\x80\\x8e");  /* LRM */
	CHECK_STR(safe("\xe2\x80\x8f"), "\\xe2\\x80\\x8f");  /* RLM */
	CHECK_STR(safe("\xd8\x9c"), "\\xd8\\x9c");          /* ALM U+061C */
	CHECK_STR(safe("\xe2\x80\xa8"), "\\xe2\\x80\\xa8");  /* LINE SEPARATOR */
	CHECK_STR(safe("\xe2\x80\xa9"), "\\xe2\\x80\\xa9");  /* PARAGRAPH SEP. */
}

/* What a cut keeps: whole escapes and characters, then "..." */
static void text_safe_cuts_between_units_and_marks_the_cut(void)
{
	char out[16];

	CHECK(lsv_text_safe(out, 7, "abcdef") == 6);
	CHECK_STR(out, "abcdef");
	CHECK(lsv_text_safe(out, 6, "abcdef") == 6);
	CHECK_STR(out, "ab...");
	/* "ab\x1bcd" is 8 safe bytes; 4 bytes of room keep "ab", never "ab\x" */
	CHECK(lsv_text_safe(out, 8, "ab\x1b" "cd") == 8);
	CHECK_STR(out, "ab...");
	CHECK(lsv_text_safe(out, 9, "ab\x1b" "cd") == 8);
	CHECK_STR(out, "ab\\x1bcd");
	/* a 4-byte character is not split */
	CHECK(lsv_text_safe(out, 6, "a\xf0\x9f\x98\x80z") == 6);
	CHECK_STR(out, "a...");
	CHECK(lsv_text_safe(out, 7, "a\xf0\x9f\x98\x80z") == 6);
	CHECK_STR(out, "a\xf0\x9f\x98\x80z");
	/* the escaped bytes of a hidden character are one unit */
	CHECK(lsv_text_safe(out, 14, "x\xef\xbb\xbf" "1") == 14);
	CHECK_STR(out, "x...");
	/* tiny buffers: as much of "..." as fits; size 0 writes nothing */
	CHECK(lsv_text_safe(out, 4, "abcd") == 4);
	CHECK_STR(out, "...");
	CHECK(lsv_text_safe(out, 3, "abcd") == 4);
	CHECK_STR(out, "..");
	CHECK(lsv_text_safe(out, 1, "abcd") == 4);
	CHECK_STR(out, "");
	out[0] = 'q';
	CHECK(lsv_text_safe(out, 0, "\x1b") == 4);
	CHECK(out[0] == 'q');
	CHECK(lsv_text_safe(NULL, 0, "a\r") == 3);
}

static void text_safe_of_safe_text_is_the_same(void)
{
	const char *mixed = "a\rb\x1b[31m\xc2\x9b\xef\xbb\xbf\xe2\x80\xae"
			    "\xff\xc3\xa9\\x1b";
	char once[128], twice[128];

	lsv_text_safe(once, sizeof once, mixed);
	CHECK_STR(once, "a\\rb\\x1b[31m\\xc2\\x9b\\xef\\xbb\\xbf\\xe2\\x80\\xae"
			"\\xff\xc3\xa9\\x1b");
	lsv_text_safe(twice, sizeof twice, once);
	CHECK_STR(twice, once);
}

/* lsv_fail stores its message safe, cut as before with "..." */
static void fail_message_is_safe_and_cut_whole(void)
{
	lsv_error e;
	char *big = malloc(2001);

	CHECK(lsv_fail(&e, LSV_EIO, "%s: cannot open: %s", "a\x1b[2Jb.txt",
		       "No such file or directory") == LSV_EIO);
	CHECK_STR(e.msg, "a\\x1b[2Jb.txt: cannot open: No such file or directory");
	if (big == NULL)
		return;
	memset(big, 'x', 2000);
	big[2000] = '\0';
	lsv_fail(&e, LSV_EFORMAT, "%s", big);
	CHECK(strlen(e.msg) == sizeof e.msg - 1);
	CHECK(strcmp(e.msg + sizeof e.msg - 5, "x...") == 0);
	/* an escape at the cut is left out whole: 1018 x, ESC, 6 y (1028
	 * safe bytes: cut, 1020 bytes of room before the "...") */
	big[1018] = '\x1b';
	memset(big + 1019, 'y', 6);
	big[1025] = '\0';
	lsv_fail(&e, LSV_EFORMAT, "%s", big);
	CHECK(strlen(e.msg) == 1018 + 3);
	CHECK(strcmp(e.msg + 1014, "xxxx...") == 0);
	free(big);
}

/* Text (len bytes) through reader kind (0 data, 1 graph, 2 model) as
 * file "t"; the status. */
static lsv_status read_mem_as(int kind, const char *text, size_t len,
			      lsv_error *e)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	lsv_status st;
	lsv_data *x = NULL;
	lsv_graph *g = NULL;
	lsv_model *m = NULL;

	if (fp == NULL)
		return LSV_EIO;
	st = kind == 0 ? lsv_data_read(fp, "t", 0.0, &x, e)
	     : kind == 1 ? lsv_graph_read(fp, "t", 0, &g, e)
			 : lsv_model_read(fp, "t", &m, e);
	fclose(fp);
	lsv_data_free(x);
	lsv_graph_free(g);
	lsv_model_free(m);
	return st;
}

static lsv_status read_as(int kind, const char *text, lsv_error *e)
{
	return read_mem_as(kind, text, strlen(text), e);
}

static void readers_refuse_a_byte_order_mark_naming_it(void)
{
	static const char *const files[] = {
		"\xef\xbb\xbf" "1 1:2\n",            /* data */
		"\xef\xbb\xbf" "1 2:1\n2 1:1\n",     /* graph */
		"\xef\xbb\xbf" "lapsvm_model 1\n",   /* model */
	};
	static const char utf16[] = "\xff\xfe" "1\0 \0" "1\0:\0" "2\0\n\0";
	lsv_error e;
	int kind;

	for (kind = 0; kind < 3; kind++) {
		CHECK(read_as(kind, files[kind], &e) ==
		      LSV_EFORMAT);
		CHECK_STR(e.msg, "t:1: the file starts with a UTF-8 byte order "
			  "mark (\\xef\\xbb\\xbf); save it without one");
	}
	/* before a comment line too: the mark is the file's first bytes */
	CHECK(read_as(0, "\xef\xbb\xbf# c\n1 1:2\n", &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:1: the file starts with a UTF-8 byte order mark "
		  "(\\xef\\xbb\\xbf); save it without one");
	/* UTF-16 is named before its NUL bytes are */
	CHECK(read_mem_as(0, utf16, sizeof utf16 - 1, &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:1: the file starts with a UTF-16 byte order mark "
		  "(\\xff\\xfe); save it as ASCII or UTF-8 text without one");
	/* elsewhere U+FEFF is an invisible character, quoted where it is */
	CHECK(read_as(0, "1 1:2\n\xef\xbb\xbf" "1 1:2\n", &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:2: bad label (found '\\xef\\xbb\\xbf1', expected "
		  "a number)");
}

static void reader_messages_quote_control_bytes(void)
{
	lsv_error e;

	CHECK(read_as(0, "1 1:2\r3\n", &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:1: bad value for feature 1 (found '2\\r3', "
		  "expected a number)");
	CHECK(read_as(0, "1 1:\x1b[2J\n", &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:1: bad value for feature 1 (found '\\x1b[2J', "
		  "expected a number)");
	CHECK(read_as(0, "\xc2\x9b" "31m 1:2\n", &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:1: bad label (found '\\xc2\\x9b31m', expected "
		  "a number)");
	CHECK(read_as(1, "1 2:\x1b[31m\n", &e) == LSV_EFORMAT);
	CHECK_STR(e.msg, "t:1: bad weight '\\x1b[31m' for column 2: not a "
		  "number");
	CHECK(read_as(2, "lapsvm_model 1\nsolver \x1b[2J\n", &e) ==
	      LSV_EFORMAT);
	CHECK(strstr(e.msg, "t:2: ") == e.msg);
	CHECK(strstr(e.msg, "'\\x1b[2J'") != NULL);
	CHECK(strchr(e.msg, '\x1b') == NULL);
}

const unit_case text_cases[] = {
	{"text_safe_keeps_printable_ascii_and_backslash",
	 text_safe_keeps_printable_ascii_and_backslash},
	{"text_safe_escapes_c0_controls_and_del",
	 text_safe_escapes_c0_controls_and_del},
	{"text_safe_escapes_bytes_that_are_not_utf8",
	 text_safe_escapes_bytes_that_are_not_utf8},
	{"text_safe_passes_valid_utf8", text_safe_passes_valid_utf8},
	{"text_safe_escapes_c1_bom_and_bidi_controls",
	 text_safe_escapes_c1_bom_and_bidi_controls},
	{"text_safe_cuts_between_units_and_marks_the_cut",
	 text_safe_cuts_between_units_and_marks_the_cut},
	{"text_safe_of_safe_text_is_the_same", text_safe_of_safe_text_is_the_same},
	{"fail_message_is_safe_and_cut_whole", fail_message_is_safe_and_cut_whole},
	{"readers_refuse_a_byte_order_mark_naming_it",
	 readers_refuse_a_byte_order_mark_naming_it},
	{"reader_messages_quote_control_bytes",
	 reader_messages_quote_control_bytes},
	{NULL, NULL},
};
