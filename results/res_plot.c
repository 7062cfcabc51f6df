/* The plots of `gpmc report html`, drawn as inline SVG.

   The state-space-growth plot, from the CSV `make bench` leaves
   (bench/out/growth.csv): a header line naming at least the columns
   series, size and states, then one line per measurement. One polyline
   per series, in the order the series first appear; x is the size
   (linear), y the states (log10). Unquoted fields only: the bench writes
   names without commas.

   Bar charts (the costs): a bar per label on one linear scale from 0 to a
   round maximum, under them an axis with its ticks, numbers and title, so
   that bars of one chart compare and the chart says what they measure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

typedef struct {
    char series[64];
    double size, states;
} Point;

enum { W = 640, H = 400, ML = 70, MR = 160, MT = 20, MB = 45 };

static const char *const colours[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NCOLOURS (sizeof colours / sizeof *colours)

/* Field k of a line (fields end at ',' or the end of the line). */
static int field(const char *line, int k, char *buf, size_t len)
{
    for (; k > 0; k--) {
        line = strpbrk(line, ",\n");
        if (!line || *line == '\n')
            return -1;
        line++;
    }
    size_t n = strcspn(line, ",\r\n");
    if (n >= len)
        n = len - 1;
    memcpy(buf, line, n);
    buf[n] = '\0';
    return 0;
}

static int column(const char *header, const char *name)
{
    char f[64];
    for (int k = 0; field(header, k, f, sizeof f) == 0; k++)
        if (!strcmp(f, name))
            return k;
    return -1;
}

static int parse(const char *csv, Point **pts, size_t *n)
{
    size_t cap = 0;
    int cs = column(csv, "series"), cz = column(csv, "size"),
        cn = column(csv, "states");
    if (cs < 0 || cz < 0 || cn < 0)
        return -1;
    for (const char *line = strchr(csv, '\n'); line && line[1];
         line = strchr(line + 1, '\n')) {
        char s[64], z[64], st[64], *e1, *e2;
        if (field(line + 1, cs, s, sizeof s) || field(line + 1, cz, z, sizeof z) ||
            field(line + 1, cn, st, sizeof st))
            continue;
        double size = strtod(z, &e1), states = strtod(st, &e2);
        if (*e1 || *e2 || !*z || !*st || !(states > 0) || !isfinite(size) ||
            !isfinite(states))
            continue;
        if (BASE_GROW(*pts, cap, *n + 1))
            return -1;
        Point *p = &(*pts)[(*n)++];
        snprintf(p->series, sizeof p->series, "%s", s);
        p->size = size;
        p->states = states;
    }
    return *n ? 0 : -1;
}

static void esc(BaseStr *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            base_str_printf(out, "&lt;");
        else if (*s == '&')
            base_str_printf(out, "&amp;");
        else
            base_str_putn(out, s, 1);
    }
}

static int seen_before(const Point *p, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (!strcmp(p[j].series, p[i].series))
            return 1;
    return 0;
}

int res_growth_svg(const char *csv, BaseStr *out)
{
    Point *p = NULL;
    size_t n = 0;
    if (parse(csv, &p, &n)) {
        base_free(p);
        return -1;
    }
    double x0 = p[0].size, x1 = p[0].size, y0 = p[0].states, y1 = y0;
    for (size_t i = 1; i < n; i++) {
        x0 = fmin(x0, p[i].size);
        x1 = fmax(x1, p[i].size);
        y0 = fmin(y0, p[i].states);
        y1 = fmax(y1, p[i].states);
    }
    double ly0 = floor(log10(y0)), ly1 = ceil(log10(y1));
    if (ly1 <= ly0)
        ly1 = ly0 + 1;
    if (x1 <= x0)
        x1 = x0 + 1;
#define X(v) (ML + ((v) - x0) / (x1 - x0) * (W - ML - MR))
#define Y(v) (MT + (ly1 - log10(v)) / (ly1 - ly0) * (H - MT - MB))
    base_str_printf(out, "<div id=\"growth-plot\"><svg xmlns=\"http://www.w3.org/"
                   "2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                   " font-family=\"sans-serif\" font-size=\"11\">\n"
                   "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
                   " fill=\"none\" stroke=\"#888\"/>\n", W, H, W, H, ML, MT,
                   W - ML - MR, H - MT - MB);
    for (double e = ly0; e <= ly1; e++)
        base_str_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
                       "1e%g</text>\n", ML - 4, Y(pow(10, e)) + 4, e);
    base_str_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%g"
                   "</text><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%g"
                   "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
                   "size</text><text x=\"14\" y=\"%d\" transform=\"rotate(-90"
                   " 14 %d)\" text-anchor=\"middle\">states</text>\n",
                   ML, H - MB + 15, x0, W - MR, H - MB + 15, x1,
                   (ML + W - MR) / 2, H - 8, H / 2, H / 2);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (seen_before(p, i))
            continue;
        const char *c = colours[k % NCOLOURS];
        base_str_printf(out, "<g class=\"series\"><polyline fill=\"none\""
                       " stroke=\"%s\" stroke-width=\"2\" points=\"", c);
        for (size_t j = i; j < n; j++)
            if (!strcmp(p[j].series, p[i].series))
                base_str_printf(out, "%.1f,%.1f ", X(p[j].size),
                               Y(p[j].states));
        base_str_printf(out, "\"/>");
        for (size_t j = i; j < n; j++)
            if (!strcmp(p[j].series, p[i].series))
                base_str_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\""
                               " fill=\"%s\"><title>%g states</title>"
                               "</circle>", X(p[j].size), Y(p[j].states), c,
                               p[j].states);
        base_str_printf(out, "<text x=\"%d\" y=\"%d\" fill=\"%s\">",
                       W - MR + 10, MT + 14 * (int)(k + 1), c);
        esc(out, p[i].series);
        base_str_printf(out, "</text></g>\n");
        k++;
    }
#undef X
#undef Y
    base_str_printf(out, "</svg></div>\n");
    base_free(p);
    return 0;
}

/* The chart's scale: the least of 1, 2, 5 times a power of ten that is at
   least max (1 for an empty chart). */
static int64_t round_max(int64_t max)
{
    int64_t p = 1;
    while (max / 10 >= p)
        p *= 10;
    for (int64_t m = 1;; m = m == 1 ? 2 : m == 2 ? 5 : 10)
        if (m * p >= max || m == 10)
            return m * p > 0 ? m * p : 1;
}

enum { CL = 64, CB = 220, CV = 80, CROW = 16, CTOP = 18, CAXIS = 34 };

void res_chart_bars(BaseStr *out, const char *title, const char *axis,
                    const char *cls, const ResBar *bars, int n)
{
    int64_t max = 0;
    for (int i = 0; i < n; i++)
        if (bars[i].value > max)
            max = bars[i].value;
    int64_t scale = round_max(max);
    int w = CL + CB + CV, h = CTOP + n * CROW + CAXIS, y0 = CTOP + n * CROW;
    base_str_printf(out, "<svg class=\"chart %s\" xmlns=\"http://www.w3.org/"
                    "2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                    " %d\" font-family=\"sans-serif\" font-size=\"11\">"
                    "<text x=\"0\" y=\"12\" font-weight=\"bold\">", cls, w, h,
                    w, h);
    esc(out, title);
    base_str_printf(out, "</text>");
    for (int i = 0; i < n; i++) {
        int y = CTOP + i * CROW;
        base_str_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
                        CL - 6, y + 11);
        esc(out, bars[i].label);
        base_str_printf(out, "</text>");
        if (bars[i].value < 0) {
            base_str_printf(out, "<text x=\"%d\" y=\"%d\" fill=\"#888\">"
                            "unknown</text>", CL + 2, y + 11);
            continue;
        }
        base_str_printf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\""
                        " width=\"%.1f\" height=\"%d\"/><text x=\"%.1f\""
                        " y=\"%d\">%lld</text>", cls, CL, y + 2,
                        (double)CB * (double)bars[i].value / (double)scale,
                        CROW - 4,
                        CL + (double)CB * (double)bars[i].value /
                                 (double)scale + 4,
                        y + 11, (long long)bars[i].value);
    }
    /* the axis: 0, half and the whole scale */
    base_str_printf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
                    " stroke=\"#444\"/>", CL, y0 + 2, CL + CB, y0 + 2);
    for (int k = 0; k <= 2; k++) {
        int x = CL + CB * k / 2;
        base_str_printf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\""
                        " stroke=\"#444\"/><text class=\"tick\" x=\"%d\""
                        " y=\"%d\" text-anchor=\"middle\">", x, y0 + 2, x,
                        y0 + 6, x, y0 + 17);
        /* whole numbers in full (%g writes 2e+06); half of 1 or 5 is not */
        if (scale % 2 == 0 || k != 1)
            base_str_printf(out, "%lld", (long long)(scale * k / 2));
        else
            base_str_printf(out, "%g", (double)scale / 2);
        base_str_printf(out, "</text>");
    }
    base_str_printf(out, "<text class=\"axis\" x=\"%d\" y=\"%d\""
                    " text-anchor=\"middle\">", CL + CB / 2, y0 + 30);
    esc(out, axis);
    base_str_printf(out, "</text></svg>");
}
