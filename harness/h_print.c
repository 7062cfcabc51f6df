/*
 * h_print.c — what `gpmc run` prints for one check: herd-style blocks
 * (DESIGN section 6) or JSON. Everything but the Time line is identical
 * from run to run.
 */
#include <string.h>

#include "harness/harness.h"

/* A verdict or an expectation (-1: none). */
static const char *vword(int v)
{
    return v < 0 ? "-" : chk_verdict_names[v];
}

/* A condition never evaluated: the check is done, yet no outcome of its
   phase was reached (a `final` check of a program that never ends, a
   `recovered` one whose recoveries never finish). Its verdict stands as
   DESIGN section 2 defines it over an empty set (forall and ~exists Ok,
   exists No); the report says it is vacuous. */
static int vacuous(const ChkReport *r, const ChkResult *x)
{
    return r->status == CHK_DONE && x->phase != LIT_NOERROR &&
           x->positive == 0 && x->negative == 0;
}

/* What the counts of a check line do not cover, or NULL: the note under
   its counts and after its Observation line (which DESIGN fixes). */
static const char *partial(const ChkReport *r, const ChkResult *x, char *buf,
                           size_t len)
{
    if (r->status != CHK_DONE && x->phase != LIT_NOERROR)
        snprintf(buf, len, "incomplete: counts only the part explored before %s",
                 r->reason ? r->reason : "the limit");
    else if (vacuous(r, x))
        snprintf(buf, len, "vacuous: no %s outcome was reached, the"
                 " condition was never evaluated", lit_phase_names[x->phase]);
    else
        return NULL;
    return buf;
}

static const char *observation(const ChkResult *r)
{
    if (r->positive == 0)
        return "Never";
    return r->negative == 0 ? "Always" : "Sometimes";
}

int h_report_passes(const LitProgram *p, const ChkReport *r)
{
    int noerror = 0;
    if (r->status != CHK_DONE)
        return 0;
    for (int k = 0; k < r->nresults; k++) {
        if (!chk_result_passes(&r->results[k]))
            return 0;
        noerror |= r->results[k].phase == LIT_NOERROR;
    }
    (void)p;
    return noerror || r->nerrors == 0;
}

/* Why a check fails, for suite's list: the check lines that do not pass
   ("cond 0: Ok, expected No; cond 3: Unknown"), then why it is
   incomplete and whether it has unexpected runtime errors; "" when it
   passes. */
void h_failure_text(const ChkReport *r, char *buf, size_t len)
{
    BaseStr s = {0};
    int noerror = 0;
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *x = &r->results[k];
        noerror |= x->phase == LIT_NOERROR;
        if (chk_result_passes(x))
            continue;
        base_str_printf(&s, "%scond %d: %s", s.len ? "; " : "", k,
                       chk_verdict_names[x->verdict]);
        if (x->expected >= 0)
            base_str_printf(&s, ", expected %s",
                           chk_verdict_names[x->expected]);
    }
    if (r->status != CHK_DONE)
        base_str_printf(&s, "%s%s: %s", s.len ? "; " : "",
                       chk_status_names[r->status],
                       r->reason ? r->reason : "");
    if (!noerror && r->nerrors)
        base_str_printf(&s, "%sruntime error without a check noerror",
                       s.len ? "; " : "");
    if (base_str_copy(&s, buf, len))
        snprintf(buf, len, "out of memory");
    base_str_free(&s);
}

static void witness_block(FILE *f, const ChkViolation *v, int64_t id)
{
    const char *s = v->witness;
    fprintf(f, "Witness %s (%d crash%s)", chk_vkind_names[v->kind],
            v->depth, v->depth == 1 ? "" : "es");
    if (id > 0)
        fprintf(f, ", violation %lld", (long long)id);
    fputs(":\n", f);
    while (s && *s) {
        const char *e = strchr(s, '\n');
        int n = e ? (int)(e - s) : (int)strlen(s);
        fprintf(f, "  %.*s\n", n, s);
        s = e ? e + 1 : NULL;
    }
}

/* The stored id of violation i, or 0. */
static int64_t vid(const HStored *ids, int i)
{
    return ids ? ids->violation_ids[i] : 0;
}

void h_print_report(FILE *f, const LitProgram *p, const ChkReport *r,
                    const TmCosts *costs, const HStored *ids)
{
    const char *model = lit_model_names[r->model];
    fprintf(f, "Test %s %s\n", p->name, model);
    if (r->status != CHK_DONE)
        fprintf(f, "Status %s: %s\n", chk_status_names[r->status],
                r->reason ? r->reason : "");
    for (int ph = 0; ph < 3; ph++) {
        int n = 0;
        for (int i = 0; i < r->noutcomes; i++)
            n += r->outcomes[i].phase == ph;
        if (!n)
            continue;
        fprintf(f, "States %s %d\n", lit_phase_names[ph], n);
        for (int i = 0; i < r->noutcomes; i++)
            if (r->outcomes[i].phase == ph)
                fprintf(f, "  %s  (%lld)\n", r->outcomes[i].state,
                        (long long)r->outcomes[i].count);
    }
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *res = &r->results[k];
        if (res->phase == LIT_NOERROR)
            fprintf(f, "Check %d noerror\n", k);
        else
            fprintf(f, "Check %d %s %s\n", k, lit_phase_names[res->phase],
                    res->cond);
        fprintf(f, "%s\n", vword(res->verdict));
        fprintf(f, "Positive: %lld Negative: %lld\n", (long long)res->positive,
                (long long)res->negative);
        char note[256];
        if (partial(r, res, note, sizeof note))
            fprintf(f, "%c%s\n", note[0] - 'a' + 'A', note + 1);
        if (res->expected >= 0 && res->expected != res->verdict)
            fprintf(f, "Expected %s: MISMATCH\n", vword(res->expected));
        for (int i = 0; i < r->nviolations; i++)
            if (r->violations[i].cond_index == k)
                witness_block(f, &r->violations[i], vid(ids, i));
    }
    if (r->nerrors) {
        fprintf(f, "Errors %d\n", r->nerrors);
        for (int i = 0; i < r->nerrors; i++)
            fprintf(f, "  %s\n", r->errors[i]);
        for (int i = 0; i < r->nviolations; i++)
            if (r->violations[i].cond_index < 0)
                witness_block(f, &r->violations[i], vid(ids, i));
    }
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *res = &r->results[k];
        char note[256];
        fprintf(f, "Observation %s %s %d %s %lld %lld\n", p->name, model, k,
                observation(res), (long long)res->positive,
                (long long)res->negative);
        if (partial(r, res, note, sizeof note))
            fprintf(f, "Note %s %s %d %s\n", p->name, model, k, note);
    }
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *res = &r->results[k];
        fprintf(f, "Verdict %s %s %d %s %s\n", p->name, model, k,
                vword(res->verdict), vword(res->expected));
    }
    fprintf(f, "Stats %s %s states %lld transitions %lld crash-points %lld "
            "images %lld recoveries %lld peak %lldKB\n", p->name, model,
            (long long)r->states, (long long)r->transitions,
            (long long)r->crash_points, (long long)r->crash_images,
            (long long)r->recoveries, (long long)r->peak_kb);
    if (costs && costs->status == TM_OK)
        fprintf(f, "Cost %s %s cycles %lld nvm-writes %lld nvm-bytes %lld\n",
                p->name, model, (long long)costs->cycles,
                (long long)costs->nvm_writes, (long long)costs->nvm_bytes);
    else if (costs)
        fprintf(f, "Cost %s %s - (%s)\n", p->name, model, costs->error);
    if (ids)
        fprintf(f, "Stored %s %s check %lld\n", p->name, model,
                (long long)ids->check_id);
    fprintf(f, "Time %s %s %.2f\n\n", p->name, model, r->elapsed_ms / 1000.0);
}

/* A JSON string, or null. */
static void jstr(BaseStr *s, const char *text)
{
    if (text)
        base_str_json(s, text);
    else
        base_str_printf(s, "null");
}

int h_print_json(FILE *f, const LitProgram *p, const ChkReport *r,
                 const TmCosts *costs, const HStored *ids)
{
    BaseStr s = {0};
    base_str_printf(&s, "{\"test\":");
    jstr(&s, p->name);
    base_str_printf(&s, ",\"path\":");
    jstr(&s, p->path);
    base_str_printf(&s, ",\"model\":\"%s\",\"status\":\"%s\",\"reason\":",
                   lit_model_names[r->model], chk_status_names[r->status]);
    jstr(&s, r->reason);
    if (ids)
        base_str_printf(&s, ",\"check_id\":%lld", (long long)ids->check_id);
    base_str_printf(&s, ",\"results\":[");
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *res = &r->results[k];
        base_str_printf(&s, "%s{\"cond_index\":%d,\"phase\":\"%s\",\"quant\":",
                       k ? "," : "", k, lit_phase_names[res->phase]);
        if (res->phase == LIT_NOERROR)
            base_str_printf(&s, "null");
        else
            base_str_printf(&s, "\"%s\"", lit_quant_names[res->quant]);
        base_str_printf(&s, ",\"cond\":");
        jstr(&s, res->cond);
        base_str_printf(&s, ",\"verdict\":\"%s\",\"expected\":",
                       vword(res->verdict));
        if (res->expected < 0)
            base_str_printf(&s, "null");
        else
            base_str_printf(&s, "\"%s\"", vword(res->expected));
        base_str_printf(&s, ",\"positive\":%lld,\"negative\":%lld,"
                       "\"vacuous\":%s}", (long long)res->positive,
                       (long long)res->negative,
                       vacuous(r, res) ? "true" : "false");
    }
    base_str_printf(&s, "],\"outcomes\":[");
    for (int i = 0; i < r->noutcomes; i++) {
        base_str_printf(&s, "%s{\"phase\":\"%s\",\"state\":", i ? "," : "",
                       lit_phase_names[r->outcomes[i].phase]);
        jstr(&s, r->outcomes[i].state);
        base_str_printf(&s, ",\"count\":%lld}",
                       (long long)r->outcomes[i].count);
    }
    base_str_printf(&s, "],\"violations\":[");
    for (int i = 0; i < r->nviolations; i++) {
        const ChkViolation *v = &r->violations[i];
        base_str_printf(&s, "%s{", i ? "," : "");
        if (ids)
            base_str_printf(&s, "\"violation_id\":%lld,", (long long)vid(ids, i));
        base_str_printf(&s, "\"cond_index\":%d,\"kind\":\"%s\",\"depth\":%d,"
                       "\"image\":", v->cond_index, chk_vkind_names[v->kind],
                       v->depth);
        jstr(&s, v->image);
        base_str_printf(&s, ",\"witness\":");
        jstr(&s, v->witness);
        /* The checker's JSON, embedded as it is. */
        base_str_printf(&s, ",\"witness_json\":%s}",
                       v->witness_json ? v->witness_json : "null");
    }
    base_str_printf(&s, "],\"errors\":[");
    for (int i = 0; i < r->nerrors; i++) {
        if (i)
            base_str_printf(&s, ",");
        jstr(&s, r->errors[i]);
    }
    base_str_printf(&s, "],\"stats\":{\"states\":%lld,\"transitions\":%lld,"
                   "\"crash_points\":%lld,\"crash_images\":%lld,"
                   "\"recoveries\":%lld,\"elapsed_ms\":%.3f,\"peak_kb\":%lld}",
                   (long long)r->states, (long long)r->transitions,
                   (long long)r->crash_points, (long long)r->crash_images,
                   (long long)r->recoveries, r->elapsed_ms,
                   (long long)r->peak_kb);
    base_str_printf(&s, ",\"costs\":");
    if (costs && costs->status == TM_OK) {
        base_str_printf(&s, "{");
        for (int k = 0; k < TM_NCOSTS; k++)
            base_str_printf(&s, "%s\"%s\":%lld", k ? "," : "", tm_cost_names[k],
                           (long long)tm_cost_value(costs, k));
        base_str_printf(&s, "}");
    } else {
        base_str_printf(&s, "null");
    }
    base_str_printf(&s, "}");
    int rc = s.failed ? -1 : 0;
    if (!rc)
        fputs(s.s, f);
    base_str_free(&s);
    return rc;
}
