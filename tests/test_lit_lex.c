/* Tests of lit_lex: token kinds, values, positions and lexical errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "litmus/litmus_int.h"
#include "tests/test_lit_common.h"

typedef struct {
    int kind;
    const char *text;
    int line, col;
} Want;

/* Lex SRC and compare every token with WANT (ended by LT_EOF). */
static void lex_all(const char *src, const Want *want)
{
    LitLexer lx;
    LitToken t;
    lit_lex_init(&lx, src, strlen(src));
    for (int i = 0;; i++) {
        lit_lex_next(&lx, &t);
        assert_int_equal(t.kind, want[i].kind);
        if (want[i].text) {
            assert_int_equal(t.len, (int)strlen(want[i].text));
            assert_memory_equal(t.text, want[i].text, (size_t)t.len);
        }
        assert_int_equal(t.pos.line, want[i].line);
        assert_int_equal(t.pos.col, want[i].col);
        if (t.kind == LT_EOF)
            return;
    }
}

static void test_punctuation(void **state)
{
    (void)state;
    Want w[] = {
        {LT_LPAREN, "(", 1, 1}, {LT_RPAREN, ")", 1, 2},
        {LT_LBRACK, "[", 1, 3}, {LT_RBRACK, "]", 1, 4},
        {LT_LBRACE, "{", 1, 5}, {LT_RBRACE, "}", 1, 6},
        {LT_COMMA, ",", 1, 7}, {LT_COLON, ":", 1, 8}, {LT_SEMI, ";", 1, 9},
        {LT_EQ, "==", 1, 11}, {LT_ASSIGN, "=", 1, 14},
        {LT_NE, "!=", 1, 16}, {LT_NOT, "!", 1, 19},
        {LT_LE, "<=", 1, 21}, {LT_LT, "<", 1, 24},
        {LT_GE, ">=", 1, 26}, {LT_GT, ">", 1, 29},
        {LT_AND, "&&", 1, 31}, {LT_OR, "||", 1, 34},
        {LT_IMP, "->", 1, 37}, {LT_MINUS, "-", 1, 40},
        {LT_PLUS, "+", 1, 42}, {LT_STAR, "*", 1, 44},
        {LT_SLASH, "/", 1, 46}, {LT_PERCENT, "%", 1, 48},
        {LT_TILDE, "~", 1, 50}, {LT_EOF, NULL, 1, 51},
    };
    lex_all("()[]{},:; == = != ! <= < >= > && || -> - + * / % ~", w);
}

static void test_words_and_numbers(void **state)
{
    (void)state;
    Want w[] = {
        {LT_IDENT, "st.wt", 1, 1}, {LT_IDENT, "a", 1, 7},
        {LT_LBRACK, "[", 1, 8}, {LT_IDENT, "r0", 1, 9},
        {LT_MINUS, "-", 1, 11}, {LT_INT, "1", 1, 12},
        {LT_RBRACK, "]", 1, 13}, {LT_COMMA, ",", 1, 14},
        {LT_INT, "0x1F", 1, 16}, {LT_DECIMAL, "1.8", 1, 21},
        {LT_IDENT, "_x9", 1, 25}, {LT_NL, "\n", 1, 28},
        {LT_TILDE, "~", 2, 1}, {LT_IDENT, "exists", 2, 2},
        {LT_INT, "1", 2, 9}, {LT_COLON, ":", 2, 10},
        {LT_IDENT, "r3", 2, 11}, {LT_PERCENT, "%", 2, 14},
        {LT_IDENT, "tid", 2, 15}, {LT_EOF, NULL, 2, 18},
    };
    lex_all("st.wt a[r0-1], 0x1F 1.8 _x9\n~exists 1:r3 %tid", w);
}

static void test_integer_values(void **state)
{
    (void)state;
    LitLexer lx;
    LitToken t;
    /* Decimal and hex alike are read modulo 2^64 (DESIGN section 2). */
    const char *src = "0 42 9223372036854775807 0x10 0xffffffffffffffff "
                      "0x8000000000000000 9223372036854775808 "
                      "18446744073709551615";
    int64_t want[] = {0, 42, INT64_MAX, 16, -1, INT64_MIN, INT64_MIN, -1};
    lit_lex_init(&lx, src, strlen(src));
    for (int i = 0; i < 8; i++) {
        lit_lex_next(&lx, &t);
        assert_int_equal(t.kind, LT_INT);
        assert_true(t.ival == want[i]);
    }
}

static void test_comments_and_newlines(void **state)
{
    (void)state;
    /* A block comment inside a line is blank; one across lines is a
       newline; a line comment runs to the newline, which stays a token. */
    Want w[] = {
        {LT_IDENT, "a", 1, 1}, {LT_IDENT, "b", 1, 10},
        {LT_NL, "\n", 1, 15}, {LT_IDENT, "c", 2, 1},
        {LT_NL, "", 2, 3}, {LT_IDENT, "d", 3, 3},
        {LT_NL, "\n", 3, 4}, {LT_NL, "\n", 4, 1},
        {LT_IDENT, "e", 5, 2}, {LT_EOF, NULL, 5, 3},
    };
    lex_all("a /* x */b// y\nc /*\n*/d\n\n\te", w);
}

static void test_crlf(void **state)
{
    (void)state;
    Want w[] = {
        {LT_IDENT, "a", 1, 1}, {LT_NL, "\n", 1, 3},
        {LT_IDENT, "b", 2, 1}, {LT_EOF, NULL, 2, 2},
    };
    lex_all("a\r\nb", w);
}

static void test_string(void **state)
{
    (void)state;
    Want w[] = {
        {LT_STRING, "\"a \\\"q\\\" \\\\ b\"", 1, 1},
        {LT_EOF, NULL, 1, 15},
    };
    lex_all("\"a \\\"q\\\" \\\\ b\"", w);
}

/* The message of the first LT_ERROR token of SRC, at LINE:COL. */
static void lex_error(const char *src, const char *msg, int line, int col)
{
    LitLexer lx;
    LitToken t;
    lit_lex_init(&lx, src, strlen(src));
    do
        lit_lex_next(&lx, &t);
    while (t.kind != LT_ERROR && t.kind != LT_EOF);
    assert_int_equal(t.kind, LT_ERROR);
    assert_string_equal(t.msg, msg);
    assert_int_equal(t.pos.line, line);
    assert_int_equal(t.pos.col, col);
}

static void test_errors(void **state)
{
    (void)state;
    lex_error("a & b", "invalid character '&'", 1, 3);
    lex_error("x | y", "invalid character '|'", 1, 3);
    lex_error("\n  12ab", "invalid number '12ab'", 2, 3);
    lex_error("0x", "invalid number '0x'", 1, 1);
    lex_error("0x1g", "invalid number '0x1g'", 1, 1);
    lex_error("1.2.3", "invalid number '1.2.3'", 1, 1);
    lex_error("18446744073709551616",
              "integer constant out of range '18446744073709551616'", 1, 1);
    lex_error("99999999999999999999",
              "integer constant out of range '99999999999999999999'", 1, 1);
    lex_error("x # y z", "invalid character '#' (comments are // ... and "
              "/* ... */)", 1, 3);
    lex_error("0x10000000000000000",
              "integer constant out of range '0x10000000000000000'", 1, 1);
    lex_error("a \"abc\nd", "unterminated string", 1, 3);
    lex_error("\"a\\nb\"", "invalid escape in string (only \\\" and \\\\)",
              1, 1);
    lex_error("a /* b\n c", "unterminated comment", 1, 3);
    lex_error("st.", "invalid character '.'", 1, 3);
    lex_error("a \x01", "invalid character '\\x01'", 1, 3);
    lex_error("\xc3\xa9t\xc3\xa9", "invalid character '\xc3\xa9'", 1, 1);
    lex_error("12345678901234567890123456789012345678901234567890x",
              "invalid number '1234567890123456789012345678901234567890...'",
              1, 1);
}

static void test_error_then_continue(void **state)
{
    (void)state;
    Want w[] = {
        {LT_IDENT, "a", 1, 1}, {LT_ERROR, "@", 1, 2},
        {LT_IDENT, "b", 1, 3}, {LT_EOF, NULL, 1, 4},
    };
    lex_all("a@b", w);
}

static void test_word(void **state)
{
    (void)state;
    LitLexer lx;
    LitToken t;
    const char *src = "test SB+pbar+sync \"doc\"\ntest\n";
    lit_lex_init(&lx, src, strlen(src));
    lit_lex_next(&lx, &t);
    assert_true(lit_lex_is(&t, "test"));
    lit_lex_word(&lx, &t);
    assert_int_equal(t.kind, LT_WORD);
    assert_int_equal(t.len, 12);
    assert_memory_equal(t.text, "SB+pbar+sync", 12);
    assert_int_equal(t.pos.col, 6);
    lit_lex_next(&lx, &t);
    assert_int_equal(t.kind, LT_STRING);
    lit_lex_next(&lx, &t);
    assert_int_equal(t.kind, LT_NL);
    lit_lex_next(&lx, &t);
    lit_lex_word(&lx, &t);              /* nothing on the line: newline */
    assert_int_equal(t.kind, LT_NL);
    assert_int_equal(t.pos.line, 2);
    assert_int_equal(t.pos.col, 5);
}

static void test_helpers(void **state)
{
    (void)state;
    LitLexer lx;
    LitToken t;
    char buf[64];
    int64_t n;
    const char *src = "r31 r40 rx r check\n";
    lit_lex_init(&lx, src, strlen(src));
    lit_lex_next(&lx, &t);
    assert_int_equal(lit_lex_register(&t, &n), 0);
    assert_int_equal(n, 31);
    lit_lex_next(&lx, &t);
    assert_int_equal(lit_lex_register(&t, &n), 0);
    assert_int_equal(n, 40);
    lit_lex_next(&lx, &t);
    assert_int_equal(lit_lex_register(&t, &n), -1);
    lit_lex_next(&lx, &t);
    assert_int_equal(lit_lex_register(&t, &n), -1);
    lit_lex_next(&lx, &t);
    assert_true(lit_lex_is(&t, "check"));
    assert_false(lit_lex_is(&t, "chec"));
    lit_lex_describe(&t, buf, sizeof buf);
    assert_string_equal(buf, "'check'");
    lit_lex_next(&lx, &t);
    lit_lex_describe(&t, buf, sizeof buf);
    assert_string_equal(buf, "end of line");
    lit_lex_next(&lx, &t);
    lit_lex_describe(&t, buf, sizeof buf);
    assert_string_equal(buf, "end of file");
}

/* Lexical errors reach the file's diagnostics once, with a position, and
   the rest of the file is still read. */
static void test_errors_in_file(void **state)
{
    (void)state;
    assert_string_equal(parse_fail("test t\n"
                                   "pm x = 1 & 2\n"
                                   "pm y = 99999999999999999999\n"
                                   "pm z = 1 # c\n"),
                        "t.litmus:2:10: error: invalid character '&'\n"
                        "t.litmus:3:8: error: integer constant out of range "
                        "'99999999999999999999'\n"
                        "t.litmus:4:10: error: invalid character '#' "
                        "(comments are // ... and /* ... */)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_punctuation),
        cmocka_unit_test(test_words_and_numbers),
        cmocka_unit_test(test_integer_values),
        cmocka_unit_test(test_comments_and_newlines),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_string),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_then_continue),
        cmocka_unit_test(test_word),
        cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_errors_in_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
