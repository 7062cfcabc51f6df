/*
 * h_print.c — what `gpmc run` prints for one check: herd-style blocks
 * (DESIGN section 6) or JSON. Everything but the Time line is identical
 * from run to run.
 */
#include <string.h>

#include "harness/harness.h"

static const char *vword(int v)
{
    return v < 0 ? "-" : v ? "Ok" : "No";
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

static void witness_block(FILE *f, const ChkViolation *v)
{
    const char *s = v->witness;
    fprintf(f, "Witness %s (%d crash%s):\n", chk_vkind_names[v->kind],
            v->depth, v->depth == 1 ? "" : "es");
    while (s && *s) {
        const char *e = strchr(s, '\n');
        int n = e ? (int)(e - s) : (int)strlen(s);
        fprintf(f, "  %.*s\n", n, s);
        s = e ? e + 1 : NULL;
    }
}

void h_print_report(FILE *f, const LitProgram *p, const ChkReport *r,
                    const TmCosts *costs)
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
        if (res->expected >= 0 && res->expected != res->verdict)
            fprintf(f, "Expected %s: MISMATCH\n", vword(res->expected));
        for (int i = 0; i < r->nviolations; i++)
            if (r->violations[i].cond_index == k)
                witness_block(f, &r->violations[i]);
    }
    if (r->nerrors) {
        fprintf(f, "Errors %d\n", r->nerrors);
        for (int i = 0; i < r->nerrors; i++)
            fprintf(f, "  %s\n", r->errors[i]);
        for (int i = 0; i < r->nviolations; i++)
            if (r->violations[i].cond_index < 0)
                witness_block(f, &r->violations[i]);
    }
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *res = &r->results[k];
        fprintf(f, "Observation %s %s %d %s %lld %lld\n", p->name, model, k,
                observation(res), (long long)res->positive,
                (long long)res->negative);
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
    fprintf(f, "Time %s %s %.2f\n\n", p->name, model, r->elapsed_ms / 1000.0);
}

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", f);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void h_print_json(FILE *f, const LitProgram *p, const ChkReport *r,
                  const TmCosts *costs)
{
    fprintf(f, "{\"test\":");
    jstr(f, p->name);
    fprintf(f, ",\"path\":");
    jstr(f, p->path);
    fprintf(f, ",\"model\":\"%s\",\"status\":\"%s\",\"reason\":",
            lit_model_names[r->model], chk_status_names[r->status]);
    if (r->reason)
        jstr(f, r->reason);
    else
        fputs("null", f);
    fprintf(f, ",\"results\":[");
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *res = &r->results[k];
        fprintf(f, "%s{\"cond_index\":%d,\"phase\":\"%s\",\"quant\":", k ? "," : "",
                k, lit_phase_names[res->phase]);
        if (res->phase == LIT_NOERROR)
            fputs("null", f);
        else
            fprintf(f, "\"%s\"", lit_quant_names[res->quant]);
        fprintf(f, ",\"cond\":");
        jstr(f, res->cond);
        fprintf(f, ",\"verdict\":\"%s\",\"expected\":", vword(res->verdict));
        if (res->expected < 0)
            fputs("null", f);
        else
            fprintf(f, "\"%s\"", vword(res->expected));
        fprintf(f, ",\"positive\":%lld,\"negative\":%lld}",
                (long long)res->positive, (long long)res->negative);
    }
    fprintf(f, "],\"outcomes\":[");
    for (int i = 0; i < r->noutcomes; i++) {
        fprintf(f, "%s{\"phase\":\"%s\",\"state\":", i ? "," : "",
                lit_phase_names[r->outcomes[i].phase]);
        jstr(f, r->outcomes[i].state);
        fprintf(f, ",\"count\":%lld}", (long long)r->outcomes[i].count);
    }
    fprintf(f, "],\"violations\":[");
    for (int i = 0; i < r->nviolations; i++) {
        const ChkViolation *v = &r->violations[i];
        fprintf(f, "%s{\"cond_index\":%d,\"kind\":\"%s\",\"depth\":%d,\"image\":",
                i ? "," : "", v->cond_index, chk_vkind_names[v->kind], v->depth);
        if (v->image)
            jstr(f, v->image);
        else
            fputs("null", f);
        fprintf(f, ",\"witness\":");
        jstr(f, v->witness);
        fprintf(f, ",\"witness_json\":%s}", v->witness_json ? v->witness_json
                                                            : "null");
    }
    fprintf(f, "],\"errors\":[");
    for (int i = 0; i < r->nerrors; i++) {
        if (i)
            fputc(',', f);
        jstr(f, r->errors[i]);
    }
    fprintf(f, "],\"stats\":{\"states\":%lld,\"transitions\":%lld,"
            "\"crash_points\":%lld,\"crash_images\":%lld,\"recoveries\":%lld,"
            "\"elapsed_ms\":%.3f,\"peak_kb\":%lld}",
            (long long)r->states, (long long)r->transitions,
            (long long)r->crash_points, (long long)r->crash_images,
            (long long)r->recoveries, r->elapsed_ms, (long long)r->peak_kb);
    fprintf(f, ",\"costs\":");
    if (costs && costs->status == TM_OK) {
        fputc('{', f);
        for (int k = 0; k < TM_NCOSTS; k++)
            fprintf(f, "%s\"%s\":%lld", k ? "," : "", tm_cost_names[k],
                    (long long)tm_cost_value(costs, k));
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputc('}', f);
}
