/* Tests of the PTX front end (DESIGN section 7, specs/ptx.md): every row
   of the mapping table lowers to the LitInstr it should, every error of
   the reader, the lowering and the from clause names its file and line,
   a PTX kernel prints as its from clause and reads back equal, and the
   semantics of lowered kernels through the checker (types, atomics,
   runtime address errors, __shared__ memory, guards, clang's loops,
   vector accesses). The PTX modules are written to a temporary
   directory; the .cu fixtures of tests/data/ptx are compiled by clang
   into a temporary cache. */
#define _XOPEN_SOURCE 700        /* nftw */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "litmus/litmus_int.h"
#include "tests/check_util.h"
#include "tests/test_lit_common.h"

static char dir[64];                    /* the temporary directory */
static char data[512];                  /* tests/data/ptx, absolute */

static void put_file(const char *name, const char *text, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void put_text(const char *name, const char *text)
{
    put_file(name, text, strlen(text));
}

/* "…/m.ptx" in messages as "$D/m.ptx". */
static char *undir(const char *text)
{
    BaseStr s = {0};
    size_t n = strlen(dir);
    for (const char *p = text; *p;) {
        if (!strncmp(p, dir, n)) {
            base_str_printf(&s, "$D");
            p += n;
        } else {
            base_str_putn(&s, p++, 1);
        }
    }
    char *r = strdup(s.s ? s.s : "");
    base_str_free(&s);
    return r;
}

/* Parses the test text as $D/t.litmus: 0 and *out, or the diagnostics
   (with $D for the directory) in *msg, which the caller frees. */
static int parse_in_dir(const char *text, LitProgram **out, char **msg)
{
    char path[256];
    BaseDiag d;
    snprintf(path, sizeof path, "%s/t.litmus", dir);
    base_diag_init(&d);
    *out = NULL;
    int rc = lit_parse_string(path, text, NULL, out, &d);
    *msg = undir(d.text ? d.text : "");
    base_diag_free(&d);
    return rc;
}

static LitProgram *ok_in_dir(const char *text)
{
    LitProgram *p;
    char *msg;
    if (parse_in_dir(text, &p, &msg))
        fail_msg("unexpected errors:\n%s", msg);
    free(msg);
    return p;
}

/* The diagnostics of a test that must fail (caller frees). */
static char *fail_in_dir(const char *text)
{
    LitProgram *p;
    char *msg;
    assert_int_not_equal(parse_in_dir(text, &p, &msg), 0);
    assert_null(p);
    return msg;
}

#define assert_fails(text, want) do { \
        char *m_ = fail_in_dir(text); \
        assert_string_equal(m_, want); \
        free(m_); \
    } while (0)

/* A module with one entry k(.u64 k_a, .u32 k_n) whose body's first line
   is line 10 of m.ptx. */
static void put_module(const char *body)
{
    char text[8192];
    snprintf(text, sizeof text,
             ".version 7.0\n"
             ".target sm_70\n"
             ".address_size 64\n"
             "\n"
             ".visible .entry k(\n"
             "\t.param .u64 k_a,\n"
             "\t.param .u32 k_n\n"
             ")\n"
             "{\n"
             "%s\n"
             "}\n", body);
    put_text("m.ptx", text);
}

/* The test that launches k(a, 7) of m.ptx on one thread. */
static const char k_test[] =
    "test P\n"
    "pm u32 a[4] = 0\n"
    "kernel k grid 1 block 1 from \"m.ptx\" k(a, 7)\n";

/* ---- the mapping table ---------------------------------------------------- */

static const char *const type_names[LIT_NTYPES] = {
    "s64", "s32", "s16", "s8", "u64", "u32", "u16", "u8", "pred"
};

static void operand_text(BaseStr *s, const char *name, const LitOperand *o)
{
    switch (o->kind) {
    case LIT_OPD_REG:
        base_str_printf(s, " %s=r%d", name, o->reg);
        break;
    case LIT_OPD_SREG:
        base_str_printf(s, " %s=%s", name, lit_sreg_names[o->reg]);
        break;
    case LIT_OPD_IMM:
        base_str_printf(s, " %s=%lld", name, (long long)o->imm);
        break;
    default:
        break;
    }
}

/* An instruction as "op ty/sty d=rD a=… b=… c=… [g|s BASE+OFF] v…
   @guard cmp=… ->target", only the fields its opcode uses. */
static char *instr_text(const LitInstr *in)
{
    BaseStr s = {0};
    unsigned f = lit_opflags(in->op);
    base_str_printf(&s, "%s %s/%s", lit_opinfo[in->op].name,
                    type_names[in->ty], type_names[in->sty]);
    if (f & LIT_OPF_SETS_RD)
        base_str_printf(&s, " d=r%d", in->rd);
    operand_text(&s, "a", &in->a);
    operand_text(&s, "b", &in->b);
    operand_text(&s, "c", &in->c);
    if (f & LIT_OPF_MEM) {
        assert_int_equal(in->m.loc, LIT_MEM_ADDR);
        base_str_printf(&s, " [%s", in->m.aspace == LIT_AS_SHARED ? "s" : "g");
        operand_text(&s, "", &in->m.base);
        base_str_printf(&s, "+%lld]", (long long)in->m.off);
    }
    for (int k = 1; k < lit_instr_elems(in); k++)
        base_str_printf(&s, "%sr%d", k == 1 ? " v=" : ",", in->vreg[k - 1]);
    if (in->guard)
        base_str_printf(&s, " @%sr%d", in->gneg ? "!" : "", in->guard - 1);
    if (in->op == LIT_SET)
        base_str_printf(&s, " cmp=%s", lit_cmp_names[in->cmp]);
    if (f & LIT_OPF_BRANCH)
        base_str_printf(&s, " ->%d", in->target);
    char *r = strdup(s.s);
    base_str_free(&s);
    return r;
}

/* The body of k after lowering `body`, one instruction per line. */
static char *lowered(const char *body)
{
    put_module(body);
    LitProgram *p = ok_in_dir(k_test);
    const LitBody *b = &p->kernels[0].bodies[0];
    BaseStr s = {0};
    for (int32_t i = 0; i < b->ninstr; i++) {
        char *t = instr_text(&b->code[i]);
        base_str_printf(&s, "%s%s", i ? "\n" : "", t);
        free(t);
    }
    char *r = strdup(s.s ? s.s : "");
    base_str_free(&s);
    lit_program_free(p);
    return r;
}

#define assert_lowers(body, want) do { \
        char *t_ = lowered(body); \
        assert_string_equal(t_, want); \
        free(t_); \
    } while (0)

/* a's generic address: the PM window's base (it is the first PM
   location, at byte 0). */
#define A_ADDR "17592186044416"

static const struct {
    const char *ptx, *want;
} rows[] = {
    /* ld, st to global/generic memory or .shared, any qualifier */
    {"ld.global.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.u64 %rd2, [%rd1+8];", "ld u64/u64 d=r0 [g =r1+8]"},
    {"ld.shared.u16 %rs1, [%r2+-2];", "ld u16/u16 d=r0 [s =r1+-2]"},
    {"ld.global.s8 %rs1, [%rd1];", "ld s8/s8 d=r0 [g =r1+0]"},
    {"ld.global.s32 %rd2, [%rd1];", "ld s32/s32 d=r0 [g =r1+0]"},
    {"ld.weak.global.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.relaxed.gpu.global.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.acquire.sys.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.volatile.global.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.global.ca.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.global.cg.b32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.global.cs.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"ld.global.nc.u32 %r1, [%rd1];", "ld u32/u32 d=r0 [g =r1+0]"},
    {"st.global.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    {"st.u8 [%rd1+3], 255;", "st u8/u8 a=255 [g =r0+3]"},
    {"st.shared.b64 [%r1], %rd2;", "st u64/u64 a=r1 [s =r0+0]"},
    {"st.global.wb.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    {"st.release.gpu.global.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    {"st.relaxed.sys.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    {"st.volatile.global.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    {"st.global.cg.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    {"st.global.cs.u32 [%rd1], %r2;", "st u32/u32 a=r1 [g =r0+0]"},
    /* vectors: that many element accesses in one step */
    {"ld.global.v2.u32 {%r1, %r2}, [%rd1];",
     "ld u32/u32 d=r0 [g =r2+0] v=r1"},
    {"ld.global.v4.u16 {%rs1, %rs2, %rs3, %rs4}, [%rd1+8];",
     "ld u16/u16 d=r0 [g =r4+8] v=r1,r2,r3"},
    {"st.global.v2.u64 [%rd1], {%rd2, %rd3};",
     "st u64/u64 a=r1 [g =r0+0] v=r2"},
    {"st.shared.v4.u32 [%r1+16], {%r2, %r3, %r4, %r5};",
     "st u32/u32 a=r1 [s =r0+16] v=r2,r3,r4"},
    /* __stwt */
    {"st.global.wt.u32 [%rd1], %r2;", "st.wt u32/u32 a=r1 [g =r0+0]"},
    {"st.global.wt.s64 [%rd1], %rd2;", "st.wt s64/s64 a=r1 [g =r0+0]"},
    /* atomics; red discards the result */
    {"atom.global.add.u32 %r1, [%rd1], 1;",
     "atom.add u32/u32 d=r0 a=1 [g =r1+0]"},
    {"atom.add.u64 %rd2, [%rd1], %rd3;",
     "atom.add u64/u64 d=r0 a=r2 [g =r1+0]"},
    {"atom.shared.exch.b32 %r1, [%r2], %r3;",
     "atom.exch u32/u32 d=r0 a=r2 [s =r1+0]"},
    {"atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
     "atom.cas u32/u32 d=r0 a=r2 b=r3 [g =r1+0]"},
    {"atom.global.and.b32 %r1, [%rd1], 6;",
     "atom.and u32/u32 d=r0 a=6 [g =r1+0]"},
    {"atom.global.or.b64 %rd1, [%rd2], 6;",
     "atom.or u64/u64 d=r0 a=6 [g =r1+0]"},
    {"atom.global.xor.b32 %r1, [%rd1], 6;",
     "atom.xor u32/u32 d=r0 a=6 [g =r1+0]"},
    {"atom.global.min.s32 %r1, [%rd1], -1;",
     "atom.min s32/s32 d=r0 a=-1 [g =r1+0]"},
    {"atom.global.max.u32 %r1, [%rd1], %r2;",
     "atom.max u32/u32 d=r0 a=r2 [g =r1+0]"},
    {"atom.global.inc.u32 %r1, [%rd1], 9;",
     "atom.inc u32/u32 d=r0 a=9 [g =r1+0]"},
    {"atom.global.dec.u32 %r1, [%rd1], 9;",
     "atom.dec u32/u32 d=r0 a=9 [g =r1+0]"},
    {"atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1;",
     "atom.add u32/u32 d=r0 a=1 [g =r1+0]"},
    {"atom.acq_rel.sys.global.exch.b32 %r1, [%rd1], 1;",
     "atom.exch u32/u32 d=r0 a=1 [g =r1+0]"},
    {"red.global.add.u32 [%rd1], 1;", "atom.add u32/u32 d=r1 a=1 [g =r0+0]"},
    {"red.shared.or.b32 [%r1], %r2;", "atom.or u32/u32 d=r2 a=r1 [s =r0+0]"},
    /* fences */
    {"membar.cta;", "membar.cta s64/s64"},
    {"fence.sc.cta;", "membar.cta s64/s64"},
    {"fence.acq_rel.cta;", "membar.cta s64/s64"},
    {"membar.gl;", "sfence s64/s64"},
    {"fence.sc.gpu;", "sfence s64/s64"},
    {"fence.acq_rel.gpu;", "sfence s64/s64"},
    {"membar.sys;", "membar.sys s64/s64"},
    {"fence.sc.sys;", "membar.sys s64/s64"},
    {"fence.acq_rel.sys;", "membar.sys s64/s64"},
    /* __syncthreads */
    {"bar.sync 0;", "bar.sync s64/s64"},
    {"barrier.sync 0;", "bar.sync s64/s64"},
    {"barrier.sync.aligned 0;", "bar.sync s64/s64"},
    /* gpmc.cuh's inline assembly */
    {"clwb [%rd1];", "clwb s64/s64 [g =r0+0]"},
    {"clflush [%rd1+64];", "clflush s64/s64 [g =r0+64]"},
    {"l2wb;", "l2wb s64/s64"},
    {"pcommit;", "pcommit s64/s64"},
    {"sfence;", "sfence s64/s64"},
    {"pbar;", "pbar s64/s64"},
    {"pbar.wi;", "pbar s64/s64"},
    {"pbar.wg;", "pbar.wg s64/s64"},
    {"pbar.kr;", "pbar.kr s64/s64"},
    {"psync;", "psync s64/s64"},
    {"grid.sync;", "grid.sync s64/s64"},
    /* ret, exit */
    {"ret;", "exit s64/s64"},
    {"exit;", "exit s64/s64"},
    /* integer ALU: register-only steps of their types */
    {"add.s32 %r1, %r2, 3;", "add s32/s32 d=r0 a=r1 b=3"},
    {"add.u64 %rd1, %rd2, %rd3;", "add u64/u64 d=r0 a=r1 b=r2"},
    {"add.s64 %rd1, %rd2, -8;", "add s64/s64 d=r0 a=r1 b=-8"},
    {"sub.u16 %rs1, %rs2, 1;", "sub u16/u16 d=r0 a=r1 b=1"},
    {"mul.lo.s32 %r1, %r2, %r3;", "mul s32/s32 d=r0 a=r1 b=r2"},
    {"mul.wide.s32 %rd1, %r2, 4;", "mul s64/s32 d=r0 a=r1 b=4"},
    {"mul.wide.u32 %rd1, %r2, 4;", "mul u64/u32 d=r0 a=r1 b=4"},
    {"mul.wide.u16 %r1, %rs2, 4;", "mul u32/u16 d=r0 a=r1 b=4"},
    {"mul.hi.u32 %r1, %r2, %r3;", "mul.hi u32/u32 d=r0 a=r1 b=r2"},
    {"mul.hi.s64 %rd1, %rd2, %rd3;", "mul.hi s64/s64 d=r0 a=r1 b=r2"},
    {"mad.lo.s32 %r1, %r2, %r3, %r4;", "mad s32/s32 d=r0 a=r1 b=r2 c=r3"},
    {"mad.wide.u32 %rd1, %r2, 8, %rd3;", "mad u64/u32 d=r0 a=r1 b=8 c=r2"},
    {"div.s32 %r1, %r2, %r3;", "div s32/s32 d=r0 a=r1 b=r2"},
    {"div.u64 %rd1, %rd2, 10;", "div u64/u64 d=r0 a=r1 b=10"},
    {"rem.u32 %r1, %r2, 3;", "rem u32/u32 d=r0 a=r1 b=3"},
    {"and.b32 %r1, %r2, 255;", "and u32/u32 d=r0 a=r1 b=255"},
    {"and.pred %p1, %p2, %p3;", "and pred/pred d=r0 a=r1 b=r2"},
    {"or.b64 %rd1, %rd2, %rd3;", "or u64/u64 d=r0 a=r1 b=r2"},
    {"xor.b32 %r1, %r2, -1;", "xor u32/u32 d=r0 a=r1 b=-1"},
    {"not.b32 %r1, %r2;", "not u32/u32 d=r0 a=r1"},
    {"not.pred %p1, %p2;", "not pred/pred d=r0 a=r1"},
    {"shl.b64 %rd1, %rd2, 3;", "shl u64/u64 d=r0 a=r1 b=3"},
    {"shr.s32 %r1, %r2, %r3;", "shr s32/s32 d=r0 a=r1 b=r2"},
    {"shr.u32 %r1, %r2, 31;", "shr u32/u32 d=r0 a=r1 b=31"},
    {"min.s32 %r1, %r2, %r3;", "min s32/s32 d=r0 a=r1 b=r2"},
    {"max.u64 %rd1, %rd2, 0;", "max u64/u64 d=r0 a=r1 b=0"},
    {"neg.s32 %r1, %r2;", "neg s32/s32 d=r0 a=r1"},
    {"abs.s64 %rd1, %rd2;", "abs s64/s64 d=r0 a=r1"},
    {"cvt.s64.s32 %rd1, %r2;", "mov s64/s32 d=r0 a=r1"},
    {"cvt.u64.u32 %rd1, %r2;", "mov u64/u32 d=r0 a=r1"},
    {"cvt.u32.u64 %r1, %rd2;", "mov u32/u64 d=r0 a=r1"},
    {"cvt.s32.s8 %r1, %r2;", "mov s32/s8 d=r0 a=r1"},
    {"cvt.u16.u32 %rs1, %r2;", "mov u16/u32 d=r0 a=r1"},
    /* setp (unsigned variants compare unsigned), selp, guards, bra */
    {"setp.eq.s32 %p1, %r1, 0;", "set pred/s32 d=r0 a=r1 b=0 cmp==="},
    {"setp.ne.u64 %p1, %rd1, %rd2;",
     "set pred/u64 d=r0 a=r1 b=r2 cmp=!="},
    {"setp.lt.s32 %p1, %r1, %r2;", "set pred/s32 d=r0 a=r1 b=r2 cmp=<"},
    {"setp.le.u32 %p1, %r1, %r2;", "set pred/u32 d=r0 a=r1 b=r2 cmp=<="},
    {"setp.gt.s64 %p1, %rd1, 5;", "set pred/s64 d=r0 a=r1 b=5 cmp=>"},
    {"setp.ge.s16 %p1, %rs1, 5;", "set pred/s16 d=r0 a=r1 b=5 cmp=>="},
    {"setp.lo.u32 %p1, %r1, %r2;", "set pred/u32 d=r0 a=r1 b=r2 cmp=<"},
    {"setp.ls.u32 %p1, %r1, %r2;", "set pred/u32 d=r0 a=r1 b=r2 cmp=<="},
    {"setp.hi.u64 %p1, %rd1, %rd2;", "set pred/u64 d=r0 a=r1 b=r2 cmp=>"},
    {"setp.hs.b32 %p1, %r1, %r2;", "set pred/u32 d=r0 a=r1 b=r2 cmp=>="},
    {"setp.lo.s32 %p1, %r1, %r2;", "set pred/u32 d=r0 a=r1 b=r2 cmp=<"},
    {"selp.b32 %r1, %r2, 7, %p1;", "selp u32/u32 d=r0 a=r1 b=7 c=r2"},
    {"selp.s64 %rd1, 1, 0, %p1;", "selp s64/s64 d=r0 a=1 b=0 c=r1"},
    {"@%p1 st.global.u32 [%rd1], %r1;",
     "st u32/u32 a=r2 [g =r1+0] @r0"},
    {"@!%p1 add.s32 %r1, %r1, 1;", "add s32/s32 d=r1 a=r1 b=1 @!r0"},
    {"L1:\n\tbra.uni L1;", "bra s64/s64 ->0"},
    {"@%p2 bra L2;\n\tret;\nL2:\n\tret;",
     "bra s64/s64 @r0 ->2\nexit s64/s64\nexit s64/s64"},
    /* mov: registers, numbers, special registers (one-dimensional) */
    {"mov.u32 %r1, %r2;", "mov u32/u32 d=r0 a=r1"},
    {"mov.b64 %rd1, -1;", "mov u64/u64 d=r0 a=-1"},
    {"mov.u32 %r1, 0x10;", "mov u32/u32 d=r0 a=16"},
    {"mov.u32 %r1, 0b101;", "mov u32/u32 d=r0 a=5"},
    {"mov.u32 %r1, %tid.x;", "mov u32/u32 d=r0 a=%tid"},
    {"mov.u32 %r1, %ntid.x;", "mov u32/u32 d=r0 a=%ntid"},
    {"mov.u32 %r1, %ctaid.x;", "mov u32/u32 d=r0 a=%ctaid"},
    {"mov.u32 %r1, %nctaid.x;", "mov u32/u32 d=r0 a=%nctaid"},
    {"mov.u32 %r1, %laneid;", "mov u32/u32 d=r0 a=%laneid"},
    {"mov.u32 %r1, %warpid;", "mov u32/u32 d=r0 a=%warpid"},
    {"mov.u32 %r1, %tid.y;", "mov u32/u32 d=r0 a=0"},
    {"mov.u32 %r1, %tid.z;", "mov u32/u32 d=r0 a=0"},
    {"mov.u32 %r1, %ctaid.y;", "mov u32/u32 d=r0 a=0"},
    {"mov.u32 %r1, %ntid.y;", "mov u32/u32 d=r0 a=1"},
    {"mov.u32 %r1, %nctaid.z;", "mov u32/u32 d=r0 a=1"},
    /* cvta: global and generic addresses are the same; shared ones are
       offsets in the shared window */
    {"cvta.to.global.u64 %rd1, %rd2;", "mov u64/u64 d=r0 a=r1"},
    {"cvta.global.u64 %rd1, %rd2;", "mov u64/u64 d=r0 a=r1"},
    {"cvta.shared.u64 %rd1, %rd2;",
     "add u64/u64 d=r0 a=r1 b=52776558133248"},
    {"cvta.to.shared.u64 %rd1, %rd2;",
     "sub u64/u64 d=r0 a=r1 b=52776558133248"},
    /* ld.param: the argument (a location's address, or a value) */
    {"ld.param.u64 %rd1, [k_a];", "mov u64/u64 d=r0 a=" A_ADDR},
    {"ld.param.u32 %r1, [k_n];", "mov u32/u32 d=r0 a=7"},
    /* registers are numbered per kernel, in order of first use */
    {"add.s32 %r9, %r8, %r9;\n\tsub.s32 %r8, %r7, %r9;",
     "add s32/s32 d=r0 a=r1 b=r0\nsub s32/s32 d=r1 a=r2 b=r0"},
};

static void test_mapping_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *t = lowered(rows[i].ptx);
        if (strcmp(t, rows[i].want))
            fail_msg("'%s' lowers to\n  %s\nnot\n  %s", rows[i].ptx, t,
                     rows[i].want);
        free(t);
    }
}

/* A kernel's registers: its own numbering, the names of the PTX, and
   directives, labels, .loc and debug sections around the body are not
   instructions. */
static void test_registers_and_directives(void **state)
{
    (void)state;
    put_text("m.ptx",
             "//\n"
             "// Generated by LLVM NVPTX Back-End\n"
             ".version 7.0\n"
             ".target sm_70, debug\n"
             ".address_size 64\n"
             "\t// .globl\tk\n"
             ".visible .entry k(\n"
             "\t.param .u64 k_a,\n"
             "\t.param .u32 k_n\n"
             ")\n"
             ".maxntid 256, 1, 1\n"
             "{\n"
             "\t.reg .pred \t%p<300>;\n"
             "\t.reg .b32 \t%r<300>;\n"
             "\t.loc\t1 4 0\n"
             "$L__func_begin0:\n"
             "\t.pragma \"nounroll\";\n"
             "\tmov.u32 \t%r250, %tid.x;\n"
             "\t.loc\t1 5 3\n"
             "\tsetp.gt.u32 \t%p299, %r250, 0;\n"
             "$L__tmp0:\n"
             "\tret;\n"
             "}\n"
             "\t.section\t.debug_str\n"
             "\t{\n"
             ".b8 107,0\n"
             "\t}\n"
             "\t.file\t1 \"/src/k.cu\"\n");
    LitProgram *p = ok_in_dir(k_test);
    const LitKernel *k = &p->kernels[0];
    const LitBody *b = &k->bodies[0];
    assert_int_equal(b->ninstr, 3);
    assert_int_equal(k->nregs, 2);
    assert_string_equal(k->reg_names[0], "%r250");
    assert_string_equal(k->reg_names[1], "%p299");
    char buf[32];
    assert_string_equal(lit_reg_name(k, 1, buf, sizeof buf), "%p299");
    assert_string_equal(b->file, "k.cu");
    assert_int_equal(b->code[0].pos.line, 4);
    assert_int_equal(b->code[1].pos.line, 5);
    assert_int_equal(b->code[1].pos.col, 3);
    assert_string_equal(b->text[1], "setp.gt.u32 %p299, %r250, 0;");
    lit_format_instr(p, b, &b->code[0], buf, sizeof buf);
    assert_string_equal(buf, "mov.u32 %r250, %tid.x;");
    lit_program_free(p);
}

/* ---- printing and equality ------------------------------------------------ */

static const char shared_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".shared .align 4 .b8 tile[16];\n"
    ".visible .entry k(\n\t.param .u64 k_a,\n\t.param .u32 k_n\n)\n{\n"
    "\t.shared .align 8 .u64 _ZZ1kE4flag;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tshl.b32 %r2, %r1, 2;\n"
    "\tmov.u32 %r3, tile;\n"
    "\tadd.s32 %r4, %r3, %r2;\n"
    "\tst.shared.u32 [%r4], %r1;\n"
    "\tst.shared.u64 [_ZZ1kE4flag], 1;\n"
    "\tret;\n}\n"
    ".visible .entry _Z1fPj(\n\t.param .u64 p\n)\n{\n\tret;\n}\n";

static void test_print_roundtrip(void **state)
{
    (void)state;
    put_text("m.ptx", shared_ptx);
    const char *text =
        "test P \"from PTX\"\n"
        "param N = 2\n"
        "pm u32 a[4] = 0\n"
        "recover {\n"
        "  kernel r grid 1 block 1 from \"m.ptx\" \"f\"(a)\n"
        "}\n"
        "kernel k grid 2 block N warp 2 from \"m.ptx\" k(a, -N - 1)\n"
        "dram u16 d = 3\n"
        "check recovered forall (a[0] == 0)\n";
    LitProgram *p = ok_in_dir(text);
    /* the __shared__ variables of k come after every declaration */
    assert_int_equal(p->nlocs, 4);
    assert_string_equal(p->locs[2].name, "tile");
    assert_true(p->locs[2].ptx);
    assert_int_equal(p->locs[2].space, LIT_SHARED);
    assert_int_equal(p->locs[2].elem, 4);
    assert_int_equal(p->locs[2].size, 4);
    assert_string_equal(p->locs[3].name, "_ZZ1kE4flag");
    assert_int_equal(p->locs[3].elem, 8);
    assert_int_equal(p->locs[3].byte, 16);
    char *out = print_str(p);
    assert_string_equal(out,
        "test P \"from PTX\"\n"
        "\n"
        "param N = 2\n"
        "\n"
        "pm u32 a[4] = 0\n"
        "dram u16 d = 3\n"
        "\n"
        "kernel k grid 2 block 2 warp 2 from \"m.ptx\" k(a, -3)\n"
        "\n"
        "recover {\n"
        "    kernel r grid 1 block 1 from \"m.ptx\" f(a)\n"
        "}\n"
        "\n"
        "check recovered forall (a[0] == 0)\n");
    LitProgram *q = ok_in_dir(out);
    assert_true(lit_program_equal(p, q));
    assert_true(lit_program_equal(q, p));
    char *again = print_str(q);
    assert_string_equal(out, again);
    free(again);
    free(out);
    lit_program_free(q);
    lit_program_free(p);
}

/* Names that do not read back as names are quoted, and equality sees
   the file, the entry and every argument. */
static void test_print_quoting_and_equality(void **state)
{
    (void)state;
    put_text("q\"x.ptx",
             ".version 7.0\n.target sm_70\n.address_size 64\n"
             ".visible .entry _ZN2ns1kEPj(\n\t.param .u64 p\n)\n{\n"
             "\tret;\n}\n");
    put_module("\tret;");
    const char *text =
        "test Q\npm u32 a[4] = 0\npm u32 b[4] = 0\n"
        "kernel k grid 1 block 1 from \"q\\\"x.ptx\" \"ns::k\"(a)\n";
    LitProgram *p = ok_in_dir(text);
    char *out = print_str(p);
    assert_non_null(strstr(out, "from \"q\\\"x.ptx\" \"ns::k\"(a)\n"));
    LitProgram *q = ok_in_dir(out);
    assert_true(lit_program_equal(p, q));
    free(out);
    lit_program_free(q);
    const char *others[] = {
        "test Q\npm u32 a[4] = 0\npm u32 b[4] = 0\n"
        "kernel k grid 1 block 1 from \"q\\\"x.ptx\" \"ns::k\"(b)\n",
        "test Q\npm u32 a[4] = 0\npm u32 b[4] = 0\n"
        "kernel k grid 1 block 1 from \"q\\\"x.ptx\" _ZN2ns1kEPj(a)\n",
        "test Q\npm u32 a[4] = 0\npm u32 b[4] = 0\n"
        "kernel k grid 1 block 1 from \"m.ptx\" k(a, 0)\n",
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        LitProgram *o = ok_in_dir(others[i]);
        assert_false(lit_program_equal(p, o));
        assert_false(lit_program_equal(o, p));
        lit_program_free(o);
    }
    LitProgram *x = ok_in_dir("test Q\npm u32 a[4] = 0\n"
                              "kernel k grid 1 block 1 from \"m.ptx\" "
                              "k(a, 1)\n");
    LitProgram *y = ok_in_dir("test Q\npm u32 a[4] = 0\n"
                              "kernel k grid 1 block 1 from \"m.ptx\" "
                              "k(a, 2)\n");
    assert_false(lit_program_equal(x, y));
    lit_program_free(x);
    lit_program_free(y);
    lit_program_free(p);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int setup(void **state)
{
    (void)state;
    char cache[128];
    snprintf(dir, sizeof dir, "/tmp/gpmc-ptx-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(cache, sizeof cache, "%s/cache", dir);
    setenv("GPMC_CACHE", cache, 1);
    setenv("GPMC_CUH", "litmus/gpmc.cuh", 0);
    if (!getcwd(data, sizeof data - 32))
        return -1;
    strcat(data, "/tests/data/ptx");
    unsetenv("GPMC_CLANG");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- errors ---------------------------------------------------------------- */

#define NOT_SUBSET "is not in the subset gpmc models (DESIGN section 7, " \
                   "specs/ptx.md) (in entry k)"
#define LOCAL "local memory (a stack array, or a local variable whose " \
              "address is taken) is not modelled: gpmc checks global, " \
              "generic and shared memory (in entry k)"

/* Each body's one error, at line 10 of $D/m.ptx, naming the instruction. */
static const struct {
    const char *body, *msg;
} body_errors[] = {
    {"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;",
     "PTX instruction 'shfl.sync.bfly.b32' " NOT_SUBSET},
    {"vote.sync.all.pred %p1, %p2, -1;",
     "PTX instruction 'vote.sync.all.pred' " NOT_SUBSET},
    {"tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [tex1, {%r5}];",
     "PTX instruction 'tex.1d.v4.s32.s32' " NOT_SUBSET},
    {"trap;", "PTX instruction 'trap' " NOT_SUBSET},
    {"popc.b32 %r1, %r2;", "PTX instruction 'popc.b32' " NOT_SUBSET},
    {"add.f32 %f1, %f2, %f3;",
     "'add.f32': floating point is not modelled (in entry k)"},
    {"ld.global.f64 %fd1, [%rd1];",
     "'ld.global.f64': floating point is not modelled (in entry k)"},
    {"cvt.rn.f32.s32 %f1, %r1;",
     "'cvt.rn.f32.s32': floating point is not modelled (in entry k)"},
    {"atom.global.add.f32 %f1, [%rd1], %f2;",
     "'atom.global.add.f32': floating point is not modelled (in entry k)"},
    {"mov.b32 %r1, 0f3F800000;",
     "'0f3F800000': floating point is not modelled (in entry k)"},
    {"add.s64 %rd1, %rd2, 0d3FF0000000000000;",
     "'0d3FF0000000000000': floating point is not modelled (in entry k)"},
    {".local .align 4 .b8 __local_depot0[16];", LOCAL},
    {"ld.local.u32 %r1, [%rd1];", LOCAL},
    {"cvta.local.u64 %rd1, %rd2;", LOCAL},
    {".global .align 4 .u32 g;",
     "'.global' variables inside a function are not modelled (in entry k)"},
    {"st.param.b32 [p0], %r1;",
     "'st.param.b32': only global, generic and shared memory are modelled "
     "(in entry k)"},
    {"call.uni (retval0), f, (param0);",
     "a call that was not inlined: gpmc models one kernel body (mark device "
     "functions __forceinline__) (in entry k)"},
    {"bar.sync 0, 64;",
     "'bar.sync': only barrier 0 without a thread count (__syncthreads) is "
     "modelled (in entry k)"},
    {"bar.sync 1;",
     "'bar.sync': only barrier 0 without a thread count (__syncthreads) is "
     "modelled (in entry k)"},
    {"barrier.sync %r1;",
     "'barrier.sync': only barrier 0 without a thread count (__syncthreads) "
     "is modelled (in entry k)"},
    {"bar.arrive 0;",
     "'bar.arrive': only bar.sync 0 (__syncthreads) is modelled (in entry "
     "k)"},
    {"bra LX;", "undefined label 'LX' (in entry k)"},
    {"ld.global.u32 %r1, [gvar];",
     "'gvar' is not a location gpmc knows (only __shared__ variables and "
     "the arguments' locations) (in entry k)"},
    {"ld.global.u32 %r1, [k_a];",
     "a parameter's address is not modelled (in entry k)"},
    {"ld.param.u32 %r1, [k_n+4];",
     "only whole scalar parameters are modelled (in entry k)"},
    {"fence.proxy.alias;",
     "'fence.proxy.alias': only fence.sc and fence.acq_rel are modelled (in "
     "entry k)"},
    {"membar;", "'membar' needs a scope (in entry k)"},
    {"mad.hi.s32 %r1, %r2, %r3, %r4;", "mad.hi is not modelled (in entry k)"},
    {"mul.wide.s64 %rd1, %rd2, 2;",
     "'mul.wide.s64': .wide needs a 16- or 32-bit type (in entry k)"},
    {"setp.eq.and.s32 %p1, %r1, 0, %p2;",
     "'setp.eq.and.s32': modifier '.and' is not in the PTX subset "
     "(specs/ptx.md) (in entry k)"},
    {"add.sat.s32 %r1, %r2, %r3;",
     "'add.sat.s32': modifier '.sat' is not in the PTX subset "
     "(specs/ptx.md) (in entry k)"},
    {"add %r1, %r2, %r3;", "'add' needs a type (in entry k)"},
    {"add.s32 %r1, %r2;", "'add.s32' takes 3 operands, found 2 (in entry k)"},
    {"atom.global.add.u32 %r1;",
     "'atom.global.add.u32' takes 3 operands, found 1 (in entry k)"},
    {"add.s32 %r1, %r2, 99999999999999999999999;",
     "'99999999999999999999999' does not fit in 64 bits (in entry k)"},
    {"mov.u32 %r1, %clock;",
     "special register '%clock' is not modelled (in entry k)"},
    {"mov.u32 %r1, %tid.w;",
     "special register '%tid.w' is not modelled (in entry k)"},
    {"st.global.v2.u32 [%rd1], {%r1, %r2, %r3};",
     "'st.global.v2.u32' needs a vector of 2 registers {%a, …} (in entry k)"},
    {"ld.global.u32 {%r1, %r2}, [%rd1];",
     "a vector operand needs .v2 or .v4 (in entry k)"},
    {"st.global.v4.u32 [%rd1], {%r1, 1, %r2, %r3};",
     "a vector element must be a register (in entry k)"},
    {"ld.global.L1::evict_last.u32 %r1, [%rd1];",
     "'ld.global.L1::evict_last.u32': modifier '.L1::evict_last' is not in "
     "the PTX subset (specs/ptx.md) (in entry k)"},
    {"clwb.x [%rd1];",
     "'clwb.x': modifier '.x' is not in the PTX subset (specs/ptx.md) (in "
     "entry k)"},
    {"mov.u32 %r1, undefined_symbol;",
     "'undefined_symbol' is not a location gpmc knows (in entry k)"},
    /* fuzz_ptx: a register address read as a value had no name to show */
    {"add.u32 %r1, [%rd1], 1;",
     "an address [..] cannot be a value here (in entry k)"},
};

static void test_body_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof body_errors / sizeof body_errors[0]; i++) {
        char want[512];
        snprintf(want, sizeof want, "$D/m.ptx:10: error: %s\n",
                 body_errors[i].msg);
        put_module(body_errors[i].body);
        char *m = fail_in_dir(k_test);
        if (strcmp(m, want))
            fail_msg("'%s' gives\n%snot\n%s", body_errors[i].body, m, want);
        free(m);
    }
}

/* A module whose one error is at PTX line 10, under `.loc 1 12 5`; the
   `.file 1` line that names (or fails to name) the CUDA file follows. */
#define LOC_MODULE \
    ".version 7.0\n.target sm_70\n.address_size 64\n" \
    ".visible .entry k(\n\t.param .u64 k_a,\n\t.param .u32 k_n\n)\n" \
    "{\n" \
    "\t.loc 1 12 5\n" \
    "\tshfl.sync.idx.b32 %r1, %r2, 0, 31, -1;\n" \
    "\tret;\n" \
    "}\n"

/* Every error of a body is reported, each at its line, in line order;
   with .loc directives the position is the CUDA line (and column), and
   the PTX line is named too. */
static void test_errors_positions(void **state)
{
    (void)state;
    put_module("\ttrap;\n\tadd.s32 %r1, %r2, 1;\n\tvote.all.pred %p1, %p2;");
    assert_fails(k_test,
                 "$D/m.ptx:10: error: PTX instruction 'trap' " NOT_SUBSET "\n"
                 "$D/m.ptx:12: error: PTX instruction 'vote.all.pred' "
                 NOT_SUBSET "\n");
    put_text("m.ptx", LOC_MODULE "\t.file 1 \"/home/u/src/kern.cu\"\n");
    assert_fails(k_test,
                 "kern.cu:12:5: error: PTX instruction 'shfl.sync.idx.b32' "
                 NOT_SUBSET " (PTX line 10 of $D/m.ptx)\n");
    /* a .file without a name (fuzz_ptx found "" printed as the path) */
    put_text("m.ptx", LOC_MODULE "\t.file 1 \"\"\n");
    assert_fails(k_test, "$D/m.ptx:10: error: PTX instruction "
                         "'shfl.sync.idx.b32' " NOT_SUBSET "\n");
}

/* A module cut short inside a declaration (fuzz_ptx found this one: the
   reader stepped past the last token) ends in an error at the end of the
   file, never a read beyond it. */
static void test_cut_short(void **state)
{
    (void)state;
    put_text("m.ptx", ".version 7.0\n.visible .entry k(\n\t.param .u64 k_a");
    assert_fails(k_test, "$D/t.litmus:3:38: error: '$D/m.ptx' has no entry "
                         "'k' (its entries: none)\n");
    put_text("m.ptx", ".version 7.0\n.visible .func (\n\t.param .b32 r");
    assert_fails(k_test, "$D/t.litmus:3:38: error: '$D/m.ptx' has no entry "
                         "'k' (its entries: none)\n"
                         "$D/m.ptx:3: error: expected a function name\n");
    put_text("m.ptx", ".version 7.0\n.visible .entry k(\n\t.param .u64 k_a)"
                      "\n{\n.shared .align");
    assert_fails(k_test, "$D/t.litmus:3:39: error: entry 'k' takes 1 "
                         "argument, 2 given\n");
}

/* A stack frame and a call are one error each, however many statements
   make them up: local memory at its first access, a call at the call. */
static void test_errors_once(void **state)
{
    (void)state;
    put_module("\t.local .align 4 .b8 __local_depot0[16];\n"
               "\tmov.u64 %SPL, __local_depot0;\n"
               "\tcvta.local.u64 %SP, %SPL;\n"
               "\tst.local.u32 [%SPL], 1;\n"
               "\tst.local.u32 [%SPL+4], 2;\n"
               "\tld.local.u32 %r1, [%SPL];");
    assert_fails(k_test, "$D/m.ptx:13: error: " LOCAL "\n");
    put_module("\t{\n"
               "\t.param .b32 param0;\n"
               "\tst.param.b32 [param0+0], %r1;\n"
               "\t.param .b32 retval0;\n"
               "\tcall.uni (retval0), _Z1fj, (param0);\n"
               "\tld.param.b32 %r2, [retval0+0];\n"
               "\t}");
    assert_fails(k_test,
                 "$D/m.ptx:14: error: a call that was not inlined: gpmc models "
                 "one kernel body (mark device functions __forceinline__) (in "
                 "entry k)\n");
}

/* Only the entries a test launches are lowered. */
static void test_other_entries_ignored(void **state)
{
    (void)state;
    put_text("m.ptx",
             ".version 7.0\n.target sm_70\n.address_size 64\n"
             ".visible .entry bad(\n\t.param .u64 p\n)\n{\n"
             "\ttrap;\n\tadd.f32 %f1, %f2, %f3;\n}\n"
             ".func (.param .b32 r) helper(.param .b32 x)\n{\n\tret;\n}\n"
             ".global .align 4 .u32 counter;\n"
             ".visible .entry k(\n\t.param .u64 k_a,\n\t.param .u32 k_n\n)\n"
             "{\n\tret;\n}\n");
    LitProgram *p = ok_in_dir(k_test);
    assert_int_equal(p->kernels[0].bodies[0].ninstr, 1);
    lit_program_free(p);
}

/* Errors of the from clause, in the test file. */
static void test_from_errors(void **state)
{
    (void)state;
    put_module("\tret;");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" k(a)\n",
                 "$D/t.litmus:3:39: error: entry 'k' takes 2 arguments, 1 "
                 "given\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" k(a, 1, 2)\n",
                 "$D/t.litmus:3:39: error: entry 'k' takes 2 arguments, 3 "
                 "given\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" k(a, a)\n",
                 "$D/t.litmus:3:43: error: argument 2 of 'k' is a location "
                 "(a 64-bit address); the parameter has 4 bytes\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" k(a, 0x100000000)\n",
                 "$D/t.litmus:3:43: error: argument 2 of 'k' (4294967296) "
                 "does not fit its 4-byte parameter\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" k(a, -2147483649)\n",
                 "$D/t.litmus:3:43: error: argument 2 of 'k' (-2147483649) "
                 "does not fit its 4-byte parameter\n");
    /* the extremes that fit: -2^31 and 2^32 - 1 */
    LitProgram *p = ok_in_dir("test P\npm u32 a[4] = 0\n"
                              "kernel k grid 1 block 1 from \"m.ptx\" "
                              "k(a, -2147483648)\n"
                              "kernel k2 grid 1 block 1 from \"m.ptx\" "
                              "k(a, 4294967295)\n");
    lit_program_free(p);
    assert_fails("test P\npm u32 a[4] = 0\nshared s = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" k(s, 1)\n",
                 "$D/t.litmus:4:40: error: shared 's' has no address outside "
                 "a CTA: declare it __shared__ in the kernel\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.ptx\" nope(a, 1)\n",
                 "$D/t.litmus:3:38: error: '$D/m.ptx' has no entry 'nope' (its "
                 "entries: k)\n");
    put_text("two.ptx",
             ".version 7.0\n.target sm_70\n.address_size 64\n"
             ".visible .entry _Z1fPj(.param .u64 p) { ret; }\n"
             ".visible .entry _Z1fPji(.param .u64 p, .param .u32 q) { ret; }\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"two.ptx\" f(a)\n",
                 "$D/t.litmus:3:40: error: 'f' names 2 entries of "
                 "'$D/two.ptx' (overloads): give the mangled name\n");
    p = ok_in_dir("test P\npm u32 a[4] = 0\n"
                  "kernel k grid 1 block 1 from \"two.ptx\" _Z1fPji(a, 1)\n");
    lit_program_free(p);
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"missing.ptx\" k(a, 1)\n",
                 "$D/t.litmus:3:30: error: cannot read '$D/missing.ptx': No "
                 "such file or directory\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"m.txt\" k(a, 1)\n",
                 "$D/t.litmus:3:30: error: 'm.txt': a kernel comes from a .cu "
                 "or a .ptx file\n");
    static const char nul[] = ".version 7.0\n.target sm_70\n"
                              ".visible .entry k(.param .u64 a) {\0 ret; }\n";
    put_file("nul.ptx", nul, sizeof nul - 1);
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"nul.ptx\" k(a)\n",
                 "$D/t.litmus:3:30: error: '$D/nul.ptx' holds a NUL byte: not "
                 "PTX text\n");
    put_text("bytes.ptx", ".version 7.0\n.target sm_70\n\x01\n");
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"bytes.ptx\" k(a)\n",
                 "$D/bytes.ptx:3: error: unexpected character '?' (0x01)\n");
}

/* clang: missing, failing (its message shown), and the cache. */
static void test_cuda_errors(void **state)
{
    (void)state;
    put_text("bad.cu", "__global__ void k(int *a)\n{\n  a[0] = ;\n}\n");
    char *m = fail_in_dir("test P\npm u32 a[4] = 0\n"
                          "kernel k grid 1 block 1 from \"bad.cu\" k(a)\n");
    assert_non_null(strstr(m, "$D/t.litmus:3:30: error: clang could not "
                              "compile '$D/bad.cu':\n"));
    if (!strstr(m, "bad.cu:3:10: error: expected expression\n"))
        fail_msg("%s", m);
    free(m);
    put_text("ok.cu", "__global__ void k(int *a) { a[0] = 1; }\n");
    setenv("GPMC_CLANG", "/nonexistent", 1);
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"ok.cu\" k(a)\n",
                 "$D/t.litmus:3:30: error: '$D/ok.cu' needs clang to compile "
                 "CUDA to PTX, and GPMC_CLANG='/nonexistent' is not an "
                 "executable\n");
    const char *path = getenv("PATH");
    char *saved = strdup(path ? path : "");
    unsetenv("GPMC_CLANG");
    setenv("PATH", "/nonexistent", 1);
    assert_fails("test P\npm u32 a[4] = 0\n"
                 "kernel k grid 1 block 1 from \"ok.cu\" k(a)\n",
                 "$D/t.litmus:3:30: error: '$D/ok.cu' needs clang to compile "
                 "CUDA to PTX, and there is none on PATH: install it (Debian, "
                 "Ubuntu: apt-get install clang) or set GPMC_CLANG\n");
    setenv("PATH", saved, 1);
    free(saved);
}

/* ---- semantics through the checker --------------------------------------- */

/* The text with $T replaced by the fixture directory (caller frees). */
static char *with_data(const char *text)
{
    BaseStr s = {0};
    for (const char *p = text; *p; p++) {
        if (p[0] == '$' && p[1] == 'T') {
            base_str_printf(&s, "%s", data);
            p++;
        } else {
            base_str_putn(&s, p, 1);
        }
    }
    char *r = strdup(s.s);
    base_str_free(&s);
    return r;
}

static LitProgram *ok_data(const char *text)
{
    char *t = with_data(text);
    LitProgram *p = ok_in_dir(t);
    free(t);
    return p;
}

/* Verdicts and outcomes of every phase under model m, default or naive:
   "Ok No|final: …|crash: …". */
static char *summary(const LitProgram *p, int model, int naive)
{
    CuOpts co = {0};
    co.naive = naive;
    co.max_states = 2000000;
    ChkReport *r = cu_run_opts(p, model, &co);
    BaseStr s = {0};
    assert_int_equal(r->status, CHK_DONE);
    base_str_printf(&s, "%s", cu_verdicts(r));
    for (int ph = LIT_FINAL; ph <= LIT_RECOVERED; ph++)
        if (cu_outcomes(r, ph)[0])
            base_str_printf(&s, "|%s: %s", lit_phase_names[ph],
                            cu_outcomes(r, ph));
    for (int i = 0; i < r->nerrors; i++) {
        char *e = undir(r->errors[i]);
        base_str_printf(&s, "|error: %s", e);
        free(e);
    }
    chk_report_free(r);
    char *out = strdup(s.s);
    base_str_free(&s);
    return out;
}

/* p under model m: the default mode gives `want` and agrees with the
   naive semantics. */
static void assert_model(const LitProgram *p, int model, const char *want)
{
    char *got = summary(p, model, 0), *naive = summary(p, model, 1);
    if (strcmp(got, want))
        fail_msg("%s: %s\nnot %s", lit_model_names[model], got, want);
    if (strcmp(got, naive))
        fail_msg("%s: default %s\nnaive %s", lit_model_names[model], got,
                 naive);
    free(got);
    free(naive);
}

static void assert_all_models(const LitProgram *p, const char *want)
{
    for (int m = 0; m < LIT_NMODELS; m++)
        assert_model(p, m, want);
}

/* u32 wraparound, shr.s32 against shr.u32, mul.wide, mul.hi, setp's
   unsigned comparisons, selp, cvt's extensions, mad, div/rem, min/max,
   neg, abs, not, xor, shl: arith.ptx's comments give each value. */
static void test_arith(void **state)
{
    (void)state;
    LitProgram *p = ok_data(
        "test AR\npm u32 out32[24] = 0\npm u64 out64[8] = 0\n"
        "kernel k grid 1 block 1 from \"$T/arith.ptx\" "
        "arith(out32, out64, 0xFFFFFFF0, 32)\n"
        "check final forall (out32 == {16, 4294967295, 268435455, "
        "4294967294, 536870910, 0, 1, 1, 1, 0, 32, 48, 68, 4294967291, "
        "4294967295, 1431655760, 4294967280, 4294967280, 4294967264, 16, "
        "4294967263, 4294967248, 4294967040, 32} && out64 == {-48, "
        "12884901840, -16, 4294967280, -96, 65520, 4294967216, "
        "4294967248})\n");
    ChkReport *r = cu_run(p, LIT_STRICT);
    assert_string_equal(cu_verdicts(r), "Ok");
    assert_int_equal(r->results[0].positive, 1);
    assert_int_equal(r->nerrors, 0);
    chk_report_free(r);
    lit_program_free(p);
}

/* atom.inc/dec wrap at their operand, min/max compare as their type,
   cas stores only when it matches, add wraps at 32 bits, red discards
   its result: atom.ptx's comments give each value. */
static void test_atomics(void **state)
{
    (void)state;
    LitProgram *p = ok_data(
        "test AT\npm u32 a[6] = {5, 0, 7, 3, 10, 4}\ndram u32 old[12] = 0\n"
        "kernel k grid 1 block 1 from \"$T/atom.ptx\" atoms(a, old)\n"
        "check final forall (a == {9, 1, 77, 1, 266, 2} && old == {5, 0, 7, "
        "3, 10, 4, 0, 1, 5, 2, 4, 2})\n");
    assert_all_models(p, "Ok|final: a[0]=9; a[1]=1; a[2]=77; a[3]=1; "
                         "a[4]=266; a[5]=2; old[0]=5; old[1]=0; old[2]=7; "
                         "old[3]=3; old[4]=10; old[5]=4; old[6]=0; old[7]=1; "
                         "old[8]=5; old[9]=2; old[10]=4; old[11]=2");
    lit_program_free(p);
}

/* An access that names no element of its width is a runtime bounds
   error of that execution: misaligned, a width mismatch, a vector's
   element past the end. */
static void test_bounds(void **state)
{
    (void)state;
    static const struct { const char *launch, *error; } cases[] = {
        {"misaligned(b)", "bounds: address 0x100000000002 is not an aligned "
         "4-byte element of a location (byte 2 of b[0], a u32 element) at "
         "$T/bounds.ptx:16 (k, thread 0)"},
        {"wide(b)", "bounds: address 0x100000000000 is not an aligned 8-byte "
         "element of a location (byte 0 of b[0], a u32 element) at "
         "$T/bounds.ptx:27 (k, thread 0)"},
        {"past(b, 3)", "bounds: address 0x100000000010 is not an aligned "
         "4-byte element of a location at $T/bounds.ptx:43 (k, thread 0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "test B\npm u32 b[4] = 0\n"
                 "kernel k grid 1 block 1 from \"$T/bounds.ptx\" %s\n"
                 "check noerror\n", cases[i].launch);
        LitProgram *p = ok_data(text);
        char *want = with_data(cases[i].error);
        for (int m = 0; m < LIT_NMODELS; m++) {
            ChkReport *r = cu_run(p, m);
            assert_string_equal(cu_verdicts(r), "No");
            assert_int_equal(r->nerrors, 1);
            assert_string_equal(r->errors[0], want);
            chk_report_free(r);
        }
        free(want);
        lit_program_free(p);
    }
    /* the vector's last element is b[3]: no error */
    LitProgram *p = ok_data("test B\npm u32 b[4] = 0\n"
                            "kernel k grid 1 block 1 from \"$T/bounds.ptx\" "
                            "past(b, 2)\ncheck noerror\n"
                            "check final forall (b == {0, 0, 2, 2})\n");
    assert_all_models(p, "Ok Ok|final: b[0]=0; b[1]=0; b[2]=2; b[3]=2");
    lit_program_free(p);
}

/* __shared__ memory has one copy per CTA, initialised at launch, and a
   value handed over through it across __syncthreads is seen (also a
   __shared__ scalar: gpmc.cuh's __syncthreads keeps clang from moving
   its load above the barrier). */
static void test_cuda_shared(void **state)
{
    (void)state;
    LitProgram *p = ok_data("test SH\npm u32 out[4] = 0\n"
                            "kernel k grid 2 block 2 from \"$T/kernels.cu\" "
                            "swap(out)\n"
                            "check final forall (out == {101, 100, 111, "
                            "110})\n");
    assert_int_equal(p->nlocs, 3);
    assert_int_equal(p->locs[1].space, LIT_SHARED);
    assert_all_models(p, "Ok|final: out[0]=101; out[1]=100; out[2]=111; "
                         "out[3]=110");
    lit_program_free(p);
}

/* Guarded stores: only threads below n store. */
static void test_cuda_guarded(void **state)
{
    (void)state;
    LitProgram *p = ok_data("test G\npm u32 out[4] = 0\n"
                            "kernel k grid 2 block 2 from \"$T/kernels.cu\" "
                            "guarded(out, 3, 7)\n"
                            "check final forall (out == {7, 7, 7, 0})\n"
                            "check crash forall (out[3] == 0)\n");
    assert_all_models(p, "Ok Ok|final: out[0]=7; out[1]=7; out[2]=7; "
                         "out[3]=0|crash: out[3]=0");
    lit_program_free(p);
}

/* Loops as clang compiles them (unrolled by 4 with a remainder loop):
   the sum of 6 elements, of none, and 2 x 5 atomic increments. */
static void test_cuda_loops(void **state)
{
    (void)state;
    LitProgram *p = ok_data(
        "test L\npm u64 out[1] = 9\ndram u32 a[6] = {1, 2, 3, 4, 5, 6}\n"
        "pm u32 c = 0\n"
        "kernel s grid 1 block 1 from \"$T/kernels.cu\" sum(out, a, 6)\n"
        "kernel n grid 1 block 1 from \"$T/kernels.cu\" count(c, 5)\n"
        "kernel m grid 1 block 2 from \"$T/kernels.cu\" count(c, 5)\n"
        "check final forall (out[0] == 21 && c == 15)\n");
    assert_all_models(p, "Ok|final: c=15; out[0]=21");
    lit_program_free(p);
    p = ok_data("test L\npm u64 out[1] = 9\ndram u32 a[1] = 1\n"
                "kernel s grid 1 block 1 from \"$T/kernels.cu\" "
                "sum(out, a, 0)\n"
                "check final forall (out[0] == 0)\n");
    assert_all_models(p, "Ok|final: out[0]=0");
    lit_program_free(p);
}

/* Vector accesses (st.v2, ld.v4, st.v4 of aligned records) are one
   step of several element accesses: a crash may find some elements of
   a vector store persisted and not others, except where the model
   persists the step's stores together (hw: one line written back). */
static void test_cuda_vectors(void **state)
{
    (void)state;
    LitProgram *p = ok_data(
        "test V\npm u32 log[4] = 0\npm u32 q[8] = {1, 2, 3, 4, 5, 6, 7, 8}\n"
        "pm u32 out[2] = 0\n"
        "kernel k grid 1 block 2 from \"$T/kernels.cu\" "
        "records(log, q, out)\n"
        "check final forall (log == {0, 1, 1, 2} && q == {4, 3, 2, 1, 8, 7, "
        "6, 5} && out == {10, 26})\n"
        "check crash exists (q[4] == 8 && q[5] == 6)\n");
    const char *final = "|final: log[0]=0; log[1]=1; log[2]=1; log[3]=2; "
                        "out[0]=10; out[1]=26; q[0]=4; q[1]=3; q[2]=2; "
                        "q[3]=1; q[4]=8; q[5]=7; q[6]=6; q[7]=5";
    /* strict: prefixes of the elements; epoch and scoped: any subset;
       hw: all or nothing */
    static const char *const crash[LIT_NMODELS] = {
        [LIT_STRICT] = "q[4]=5; q[5]=6|q[4]=8; q[5]=6|q[4]=8; q[5]=7",
        [LIT_EPOCH] = "q[4]=5; q[5]=6|q[4]=5; q[5]=7|q[4]=8; q[5]=6|q[4]=8; "
                      "q[5]=7",
        [LIT_BEPOCH] = "q[4]=5; q[5]=6|q[4]=5; q[5]=7|q[4]=8; q[5]=6|q[4]=8; "
                       "q[5]=7",
        [LIT_SCOPED] = "q[4]=5; q[5]=6|q[4]=5; q[5]=7|q[4]=8; q[5]=6|q[4]=8; "
                       "q[5]=7",
        [LIT_BSCOPED] = "q[4]=5; q[5]=6|q[4]=5; q[5]=7|q[4]=8; q[5]=6|"
                        "q[4]=8; q[5]=7",
        [LIT_HW] = "q[4]=5; q[5]=6|q[4]=8; q[5]=7",
    };
    char want[512];
    for (int m = 0; m < LIT_NMODELS; m++) {
        snprintf(want, sizeof want, "Ok %s%s|crash: %s", m == LIT_HW
                 ? "No" : "Ok", final, crash[m]);
        assert_model(p, m, want);
    }
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapping_table),
        cmocka_unit_test(test_registers_and_directives),
        cmocka_unit_test(test_print_roundtrip),
        cmocka_unit_test(test_print_quoting_and_equality),
        cmocka_unit_test(test_body_errors),
        cmocka_unit_test(test_errors_positions),
        cmocka_unit_test(test_cut_short),
        cmocka_unit_test(test_errors_once),
        cmocka_unit_test(test_other_entries_ignored),
        cmocka_unit_test(test_from_errors),
        cmocka_unit_test(test_cuda_errors),
        cmocka_unit_test(test_arith),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_cuda_shared),
        cmocka_unit_test(test_cuda_guarded),
        cmocka_unit_test(test_cuda_loops),
        cmocka_unit_test(test_cuda_vectors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
