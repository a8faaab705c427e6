// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf gpu timechart: the page writer (tools/perf-gpu/timechart/html.c)
 * by itself, and perf gpu timechart ($GPUPROF_PERF_GPU) on perf.data
 * files made with the perf.data writer of tools/perf-gpu; the pages
 * opened in Debian's headless Chromium.
 *
 * How a page is checked in Chromium ($GPUPROF_CHROMIUM, default
 * /usr/bin/chromium; the tests that need it SKIP without it):
 *
 *  - --dump-dom prints the DOM once the page's script has run.  The
 *    page writes its #status element: "ok", the plot's x range, the
 *    view, the lane height, how many boxes the last drawing filled, and
 *    one line per track with its band (page pixels); or "error: ..."
 *    from window.onerror.  Hooks in the URL's fragment run first:
 *    wheel=X,Y,DY and drag=X0,Y,X1 send the events a wheel or a drag
 *    would, hover=X,Y adds the text the pointer there would show.
 *  - --enable-logging=stderr --v=0 puts every console message on stderr
 *    as a "...:CONSOLE..." line: errors, uncaught exceptions, and the
 *    violations of the page's Content-Security-Policy, which forbids
 *    every load.  There must be none.
 *  - --screenshot writes a PNG of the window (lib/png.h reads it); a
 *    track's band must hold pixels other than the white background
 *    where the model has items, and none where it has none.
 *  - Chromium runs in a network namespace of its own (unshare -n) when
 *    that works, so nothing could be fetched even if a page tried.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <i915_drm.h>

#include "../lib/harness.h"
#include "../lib/oa_topology.h"
#include "../lib/gpu_formats.h"
#include "../lib/png.h"
#include "../lib/corrupt.h"
#include "../lib/run.h"
#include "../lib/setup_provides.h"
#include "../../tools/perf-gpu/oa/metrics.h"
#include "../../tools/perf-gpu/perfdata/write.h"
#include "../../tools/perf-gpu/timechart/html.h"
#include "../../tools/perf-gpu/perfdata/tracing-data.h"

#define WIN_W	1000
#define WIN_H	1000
#define WHITE	0xffffffu
#define MS	1000000ull
#define T0	5000000000ull	/* the known model starts at 5 s */

static const char *chromium_bin(void)
{
	const char *p = getenv("GPUPROF_CHROMIUM");

	return p ? p : "/usr/bin/chromium";
}

/* ---- What a page showed. ---- */

struct track_band {
	int y0, y1, lanes;
	char kind[16], name[128];
};

struct page {
	char state[16];
	char status[16384];
	double x0, x1, v0, v1;
	int lane, draws, nr_tracks;
	struct track_band track[16];
	char hover[8][512];
	int nr_hover;
	char *dom;		/* the whole DOM, malloc'ed */
};

FIXTURE(tc) {
	char dir[64];
	char path[160];		/* a page */
	char data[160];		/* a perf.data */
	char out[1 << 16];
	bool netns;
	struct page pg;
};

FIXTURE_SETUP(tc)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/perf_gpu_timechart.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/page.html", self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	self->netns = run_cmd(self->out, sizeof(self->out), "unshare -n true") == 0;
	memset(&self->pg, 0, sizeof(self->pg));
}

FIXTURE_TEARDOWN(tc)
{
	char out[256];

	free(self->pg.dom);
	run_cmd(out, sizeof(out), "rm -rf '%s'", self->dir);
}

static bool have_chromium(void)
{
	return access(chromium_bin(), X_OK) == 0;
}

#define NEED_CHROMIUM() do {						\
	SETUP_PROVIDES(have_chromium(), "%s (selftests/setup.sh installs Debian's chromium)", \
		       chromium_bin());					\
} while (0)

/*
 * Run Chromium on @path with @fragment (may be "") and @what
 * ("--dump-dom" or "--screenshot=FILE"); stdout to @out.  Returns its
 * exit status; the console lines it logged are counted in *@console
 * and the first is copied to @first.
 */
static int chromium(FIXTURE_DATA(tc) *self, const char *path,
		    const char *fragment, const char *what, int *console,
		    char *first, size_t first_size)
{
	char log[200], line[1024];
	FILE *f;
	int st;

	snprintf(log, sizeof(log), "%s/chromium.log", self->dir);
	st = run_cmd(self->out, sizeof(self->out),
		     "{ %s timeout 120 %s --headless=new --no-sandbox --disable-gpu "
		     "--no-first-run --disable-background-networking "
		     "--disable-component-update --disable-sync "
		     "--user-data-dir=%s/profile --window-size=%d,%d "
		     "--enable-logging=stderr --v=0 %s 'file://%s%s' 2>%s; }",
		     self->netns ? "unshare -n" : "", chromium_bin(), self->dir,
		     WIN_W, WIN_H, what, path, fragment, log);
	*console = 0;
	first[0] = '\0';
	f = fopen(log, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/*
		 * Chromium's own pages (chrome://, its new-tab components)
		 * log too, about the network they cannot reach: not ours.
		 */
		if (!strstr(line, ":CONSOLE") || strstr(line, "source: chrome://"))
			continue;
		if (!(*console)++)
			snprintf(first, first_size, "%s", line);
	}
	fclose(f);
	return st;
}

/* The HTML entities --dump-dom writes in text, decoded in place. */
static void decode_entities(char *s)
{
	static const struct { const char *e; char c; } ents[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' },
		{ "&quot;", '"' }, { "&#39;", '\'' },
	};
	char *w = s;
	size_t i;

	while (*s) {
		for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++)
			if (!strncmp(s, ents[i].e, strlen(ents[i].e)))
				break;
		if (i < sizeof(ents) / sizeof(ents[0])) {
			*w++ = ents[i].c;
			s += strlen(ents[i].e);
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/* Parse #status out of the DOM in self->out into self->pg. */
static int parse_status(FIXTURE_DATA(tc) *self)
{
	struct page *pg = &self->pg;
	char *p = strstr(self->out, "<pre id=\"status\""), *end, *line, *save;
	char *state;

	free(pg->dom);
	memset(pg, 0, sizeof(*pg));
	pg->dom = strdup(self->out);
	if (!p || !(end = strchr(p, '>')))
		return -1;
	state = strstr(p, "data-state=\"");
	if (state && state < end)
		sscanf(state + 12, "%15[^\"]", pg->state);
	p = end + 1;
	end = strstr(p, "</pre>");
	if (!end || (size_t)(end - p) >= sizeof(pg->status))
		return -1;
	memcpy(pg->status, p, end - p);
	decode_entities(pg->status);
	{
		char copy[sizeof(pg->status)];

		memcpy(copy, pg->status, sizeof(copy));
		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			struct track_band *t = &pg->track[pg->nr_tracks];
			int n = 0;

			if (sscanf(line, "plot %lf %lf", &pg->x0, &pg->x1) == 2 ||
			    sscanf(line, "view %lf %lf", &pg->v0, &pg->v1) == 2 ||
			    sscanf(line, "lane %d", &pg->lane) == 1 ||
			    sscanf(line, "draws %d", &pg->draws) == 1)
				continue;
			if (!strncmp(line, "hover ", 6) && pg->nr_hover < 8) {
				snprintf(pg->hover[pg->nr_hover++], sizeof(pg->hover[0]),
					 "%s", line + 6);
				continue;
			}
			if (pg->nr_tracks < 16 &&
			    sscanf(line, "track %*d %d %d %15s %d %n", &t->y0, &t->y1,
				   t->kind, &t->lanes, &n) == 4 && n) {
				snprintf(t->name, sizeof(t->name), "%s", line + n);
				pg->nr_tracks++;
			}
		}
	}
	return 0;
}

/*
 * Load @path (with @fragment) and read its status: Chromium must exit
 * 0, log no console message, and the page must say "ok".
 */
static void load(struct __test_metadata *_metadata, FIXTURE_DATA(tc) *self,
		 const char *path, const char *fragment)
{
	char first[1024];
	int console;

	ASSERT_EQ(0, chromium(self, path, fragment, "--dump-dom", &console,
			      first, sizeof(first))) TH_LOG("%.2000s", self->out);
	EXPECT_EQ(0, console) TH_LOG("%s", first);
	ASSERT_EQ(0, parse_status(self)) TH_LOG("no #status in:\n%.2000s", self->out);
	ASSERT_STREQ("ok", self->pg.state) TH_LOG("%s", self->pg.status);
}

static void screenshot(struct __test_metadata *_metadata, FIXTURE_DATA(tc) *self,
		       const char *path, const char *fragment,
		       struct png_image *img)
{
	char what[256], png[200], err[256], first[1024];
	int console;

	snprintf(png, sizeof(png), "%s/shot.png", self->dir);
	snprintf(what, sizeof(what), "--screenshot=%s", png);
	unlink(png);
	ASSERT_EQ(0, chromium(self, path, fragment, what, &console, first,
			      sizeof(first))) TH_LOG("%.2000s", self->out);
	EXPECT_EQ(0, console) TH_LOG("%s", first);
	ASSERT_EQ(0, png_read(png, img, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(WIN_W, img->width);
	ASSERT_EQ(WIN_H, img->height);
}

/* The page column of time @t (ns from the start) in the page's view. */
static double xof(const struct page *pg, double t)
{
	return pg->x0 + (t - pg->v0) * (pg->x1 - pg->x0) / (pg->v1 - pg->v0);
}

/* Non-white pixels in columns [@xa, @xb) and rows [@ya, @yb). */
static int ink(const struct png_image *img, int xa, int xb, int ya, int yb)
{
	int x, y, n = 0;

	for (y = ya; y < yb; y++)
		for (x = xa; x < xb; x++)
			n += png_pixel(img, x, y) != WHITE;
	return n;
}

/* Columns of the plot with some ink in rows [@ya, @yb). */
static int inked_columns(const struct page *pg, const struct png_image *img,
			 int ya, int yb)
{
	int x, n = 0;

	for (x = (int)pg->x0; x < (int)pg->x1; x++)
		n += ink(img, x, x + 1, ya, yb) > 0;
	return n;
}

/* The row in the middle of lane @l of track @i. */
static int lane_row(const struct page *pg, int i, int l)
{
	return pg->track[i].y0 + l * pg->lane + pg->lane / 2 - 1;
}

static uint32_t pixel_at(const struct page *pg, const struct png_image *img,
			 int i, int l, double t)
{
	return png_pixel(img, (int)xof(pg, t), lane_row(pg, i, l));
}

/*
 * The inked rows of track @i's band in the column of time @t: a line
 * drawn at fraction @frac of the band's height (from its bottom) has
 * them all within 2.5 pixels of it.
 */
static void expect_line_at(struct __test_metadata *_metadata,
			   const struct page *pg, const struct png_image *img,
			   int i, double t, double frac)
{
	double y = pg->track[i].y1 - frac * (pg->track[i].y1 - pg->track[i].y0);
	double top = -1, bottom = -1;
	int x = (int)xof(pg, t), yy;

	for (yy = pg->track[i].y0; yy < pg->track[i].y1; yy++) {
		if (png_pixel(img, x, yy) == WHITE)
			continue;
		if (top < 0)
			top = yy;
		bottom = yy;
	}
	EXPECT_LE(fabs(top - y), 2.5) TH_LOG("track %d: top %f, want %f", i, top, y);
	EXPECT_LE(fabs(bottom - y), 2.5) TH_LOG("track %d: bottom %f, want %f", i, bottom, y);
}

/* Every track's band has ink in the plot. */
static void every_track_drawn(struct __test_metadata *_metadata,
			      const struct page *pg, const struct png_image *img)
{
	int i;

	for (i = 0; i < pg->nr_tracks; i++) {
		EXPECT_LT(0, ink(img, (int)pg->x0, (int)pg->x1, pg->track[i].y0,
				 pg->track[i].y1))
			TH_LOG("track %d (%s) is blank", i, pg->track[i].name);
	}
}

/* ---- The known model. ---- */

/*
 * 100 ms from 5 s.  Timeline i915 gt0:rcs0: glxgears (pid 1200) at
 * 0-10 and 20-30 ms, vkcube (pid 1300) at 50-90 ms, and glxgears again
 * at 55-60 ms, overlapping, so in a second lane.  vblank every 16 ms
 * from 0 (seq 100..106).  GPU busy 0, 9.5, ... 95 % every 10 ms.
 * Ranges of glxgears: frame 5-80 ms with draw 10-40 ms inside, and a
 * frame from 85 ms with no end.
 */
static void known_model(struct timechart *tc)
{
	int a = tc_client(tc, 1200, "glxgears"), b = tc_client(tc, 1300, "vkcube");
	int j = tc_track(tc, TC_JOBS, "i915 gt0:rcs0", NULL);
	int v = tc_track(tc, TC_VBLANK, "vblank crtc 0", NULL);
	int l = tc_track(tc, TC_LINE, "GPU busy", "%");
	int r = tc_track(tc, TC_RANGES, "ranges of glxgears (pid 1200)", NULL);
	int i, err = 0;

	/* Added out of order and kinds mixed: the writer sorts. */
	err |= tc_add_range(tc, r, T0 + 10 * MS, T0 + 40 * MS, 1, "draw", false);
	err |= tc_add_job(tc, j, T0 + 50 * MS, T0 + 90 * MS, b, 8, 1);
	err |= tc_add_job(tc, j, T0, T0 + 10 * MS, a, 7, 1);
	err |= tc_add_job(tc, j, T0 + 20 * MS, T0 + 30 * MS, a, 7, 2);
	err |= tc_add_job(tc, j, T0 + 55 * MS, T0 + 60 * MS, a, 9, 1);
	for (i = 0; i < 7; i++)
		err |= tc_add_tick(tc, v, T0 + i * 16 * MS, 100 + i);
	for (i = 0; i < 11; i++)
		err |= tc_add_sample(tc, l, T0 + i * 10 * MS, i * 9.5);
	err |= tc_add_range(tc, r, T0 + 5 * MS, T0 + 80 * MS, 0, "frame", false);
	err |= tc_add_range(tc, r, T0 + 85 * MS, T0 + 100 * MS, 0, "frame", true);
	err |= tc_note(tc, "a note");
	tc_set_span(tc, T0, T0 + 100 * MS);
	if (err)
		abort();
}

static int write_page(const char *path, struct timechart *tc, size_t max,
		      struct tc_write_stats *st)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -errno;
	err = tc_write_html(tc, f, max, st);
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* A model's page, written with the writer, as a string (malloc'ed). */
static char *page_text(FIXTURE_DATA(tc) *self, struct timechart *tc, size_t max,
		       struct tc_write_stats *st)
{
	size_t len;

	if (write_page(self->path, tc, max, st))
		return NULL;
	return slurp(self->path, &len);
}

TEST_F(tc, known_model_page_is_self_contained)
{
	struct timechart *tc = tc_new("known");
	struct tc_write_stats st;
	char *html;

	ASSERT_NE(NULL, tc);
	known_model(tc);
	html = page_text(self, tc, 0, &st);
	ASSERT_NE(NULL, html);
	EXPECT_EQ(0, st.bucket_ns);
	EXPECT_EQ(25, st.detail);
	EXPECT_EQ(0, st.merged);
	/* Nothing that loads: no src, href, url() or address at all. */
	EXPECT_EQ(NULL, strstr(html, "src="));
	EXPECT_EQ(NULL, strstr(html, "href"));
	EXPECT_EQ(NULL, strstr(html, "url("));
	EXPECT_EQ(NULL, strstr(html, "://"));
	EXPECT_EQ(NULL, strstr(html, "@import"));
	EXPECT_NE(NULL, strstr(html, "content=\"default-src 'none'"));
	/* The data, sorted, lanes assigned, starts delta-coded. */
	EXPECT_NE(NULL, strstr(html,
		"{\"kind\":\"jobs\",\"name\":\"i915 gt0:rcs0\",\"unit\":\"\",\"lanes\":2,"
		"\"d\":[0,10000000,0,0,7,1,20000000,10000000,0,0,7,2,"
		"30000000,40000000,0,1,8,1,5000000,5000000,1,0,9,1],\"m\":[]}"));
	EXPECT_NE(NULL, strstr(html,
		"\"d\":[5000000,75000000,0,1,0,-1,5000000,30000000,1,0,0,-1,"
		"75000000,15000000,0,1,1,-1],\"m\":[]"));
	EXPECT_NE(NULL, strstr(html, "\"names\":[\"draw\",\"frame\"]"));
	EXPECT_NE(NULL, strstr(html, "\"clients\":[[1200,\"glxgears\"],[1300,\"vkcube\"]]"));
	EXPECT_NE(NULL, strstr(html, "{\"t0_sec\":5,\"t0_nsec\":0,\"span\":100000000,\"bucket_ns\":0,"));
	EXPECT_NE(NULL, strstr(html, "\"items\":25,\"detail\":25,\"merged\":0}</script>"));
	free(html);
	tc_free(tc);
}

TEST_F_TIMEOUT(tc, known_model_draws_every_track, 120)
{
	struct timechart *tc = tc_new("known");
	struct png_image img;
	const struct page *pg = &self->pg;
	uint32_t glx, vk;

	NEED_CHROMIUM();
	ASSERT_NE(NULL, tc);
	known_model(tc);
	ASSERT_EQ(0, write_page(self->path, tc, 0, NULL));
	tc_free(tc);

	load(_metadata, self, self->path, "");
	ASSERT_EQ(4, pg->nr_tracks) TH_LOG("%s", pg->status);
	EXPECT_STREQ("jobs", pg->track[0].kind);
	EXPECT_STREQ("i915 gt0:rcs0", pg->track[0].name);
	EXPECT_EQ(2, pg->track[0].lanes);
	EXPECT_STREQ("vblank crtc 0", pg->track[1].name);
	EXPECT_STREQ("line", pg->track[2].kind);
	EXPECT_STREQ("GPU busy", pg->track[2].name);
	EXPECT_STREQ("ranges of glxgears (pid 1200)", pg->track[3].name);
	EXPECT_EQ(2, pg->track[3].lanes);
	/* The whole recording in view. */
	EXPECT_EQ(0, pg->v0);
	EXPECT_EQ(100 * MS, pg->v1);

	screenshot(_metadata, self, self->path, "", &img);
	every_track_drawn(_metadata, pg, &img);

	/* Jobs: the client's colour inside its boxes, white between. */
	glx = pixel_at(pg, &img, 0, 0, 5 * MS);
	vk = pixel_at(pg, &img, 0, 0, 70 * MS);
	EXPECT_NE(WHITE, glx);
	EXPECT_NE(WHITE, vk);
	EXPECT_NE(glx, vk);
	EXPECT_EQ(glx, pixel_at(pg, &img, 0, 0, 25 * MS));
	EXPECT_EQ(glx, pixel_at(pg, &img, 0, 1, 57.5 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 0, 0, 40 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 0, 1, 70 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 0, 1, 5 * MS));

	/* vblank: seven ticks of one pixel, the last at 96 ms. */
	EXPECT_EQ(7, inked_columns(pg, &img, pg->track[1].y0, pg->track[1].y1));
	EXPECT_LT(0, ink(&img, (int)xof(pg, 96 * MS), (int)xof(pg, 96 * MS) + 1,
			 pg->track[1].y0, pg->track[1].y1));

	/* The line at 50 ms: 47.5 % of the band's height. */
	expect_line_at(_metadata, pg, &img, 2, 50 * MS, 0.475);

	/* Ranges: frame in lane 0, draw nested in lane 1. */
	EXPECT_NE(WHITE, pixel_at(pg, &img, 3, 0, 60 * MS));
	EXPECT_NE(WHITE, pixel_at(pg, &img, 3, 1, 25 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 3, 1, 60 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 3, 0, 82.5 * MS));
	EXPECT_NE(WHITE, pixel_at(pg, &img, 3, 0, 95 * MS));
	png_free(&img);
}

TEST_F_TIMEOUT(tc, hover_shows_the_event, 120)
{
	struct timechart *tc = tc_new("known");
	const struct page *pg = &self->pg;
	char frag[512];

	NEED_CHROMIUM();
	ASSERT_NE(NULL, tc);
	known_model(tc);
	ASSERT_EQ(0, write_page(self->path, tc, 0, NULL));
	tc_free(tc);
	/* The layout first: where the tracks are. */
	load(_metadata, self, self->path, "");
	ASSERT_EQ(4, pg->nr_tracks);
	snprintf(frag, sizeof(frag),
		 "#hover=%d,%d&hover=%d,%d&hover=%d,%d&hover=%d,%d&hover=%d,%d&hover=%d,%d",
		 (int)xof(pg, 5 * MS), lane_row(pg, 0, 0),
		 (int)xof(pg, 57 * MS), lane_row(pg, 0, 1),
		 (int)xof(pg, 40 * MS), lane_row(pg, 0, 0),
		 (int)xof(pg, 16 * MS), lane_row(pg, 1, 0),
		 (int)xof(pg, 50 * MS), lane_row(pg, 2, 0),
		 (int)xof(pg, 20 * MS), lane_row(pg, 3, 1));
	load(_metadata, self, self->path, frag);
	ASSERT_EQ(6, pg->nr_hover) TH_LOG("%s", pg->status);
	EXPECT_STREQ("job of glxgears (pid 1200) | timeline i915 gt0:rcs0 | "
		     "start 5.000000000 (+0 ns) | duration 10.000 ms | context 7 seqno 1",
		     pg->hover[0]);
	EXPECT_STREQ("job of glxgears (pid 1200) | timeline i915 gt0:rcs0 | "
		     "start 5.055000000 (+55.000 ms) | duration 5.000 ms | context 9 seqno 1",
		     pg->hover[1]);
	EXPECT_STREQ("null", pg->hover[2]);
	EXPECT_STREQ("vblank vblank crtc 0 seq 101 | time 5.016000000 (+16.000 ms)",
		     pg->hover[3]);
	EXPECT_STREQ("GPU busy: 47.5 % | time 5.050000000 (+50.000 ms)", pg->hover[4]);
	EXPECT_STREQ("range draw | ranges of glxgears (pid 1200) | "
		     "start 5.010000000 (+10.000 ms) | duration 30.000 ms", pg->hover[5]);
}

/*
 * The wheel zooms at the pointer, a drag pans: the view after both, and
 * what the pointer shows at a spot of the new view.
 */
TEST_F_TIMEOUT(tc, wheel_zooms_and_drag_pans, 120)
{
	struct timechart *tc = tc_new("known");
	const struct page *pg = &self->pg;
	double x0, x1, f, t, w, v0, v1, dt, xa;
	char frag[512];
	int y;

	NEED_CHROMIUM();
	ASSERT_NE(NULL, tc);
	known_model(tc);
	ASSERT_EQ(0, write_page(self->path, tc, 0, NULL));
	tc_free(tc);
	load(_metadata, self, self->path, "");
	x0 = pg->x0;
	x1 = pg->x1;
	y = lane_row(pg, 0, 0);
	/*
	 * The page's rule: a wheel step of DY scales the view by 1.0015^DY
	 * about the time under the pointer; a drag of DX pixels moves it by
	 * DX pixels' worth of time.
	 */
	f = pow(1.0015, -462.0);
	t = 0 + (x0 + 400 - x0) * (100.0 * MS) / (x1 - x0);
	w = 100.0 * MS * f;
	v0 = t - (t - 0) * (w / (100.0 * MS));
	v1 = v0 + w;
	dt = 80 * (v1 - v0) / (x1 - x0);
	v0 -= dt;
	v1 -= dt;
	/* After both, a pixel on the job at 20-30 ms (seqno 2). */
	xa = x0 + (27.0 * MS - v0) * (x1 - x0) / (v1 - v0);
	snprintf(frag, sizeof(frag), "#wheel=%d,%d,-462&drag=%d,%d,%d&hover=%d,%d",
		 (int)x0 + 400, y, (int)x0 + 420, y, (int)x0 + 500, (int)xa, y);
	load(_metadata, self, self->path, frag);
	EXPECT_LE(fabs(pg->v0 - v0), 1.0) TH_LOG("view %f %f, want %f %f", pg->v0, pg->v1, v0, v1);
	EXPECT_LE(fabs(pg->v1 - v1), 1.0) TH_LOG("view %f %f, want %f %f", pg->v0, pg->v1, v0, v1);
	ASSERT_EQ(1, pg->nr_hover);
	EXPECT_STREQ("job of glxgears (pid 1200) | timeline i915 gt0:rcs0 | "
		     "start 5.020000000 (+20.000 ms) | duration 10.000 ms | context 7 seqno 2",
		     pg->hover[0]);
}

/*
 * Text of the recording cannot break out of the page: a comm that
 * closes the script element, quotes, bytes that are not UTF-8.
 */
TEST_F_TIMEOUT(tc, hostile_names_stay_text, 120)
{
	struct timechart *tc = tc_new("</title><script>x</script>");
	const struct page *pg = &self->pg;
	int c, t;
	char frag[128], *html;
	size_t len;

	ASSERT_NE(NULL, tc);
	c = tc_client(tc, 7, "</script><b>\"x\xff");
	t = tc_track(tc, TC_JOBS, "a & b </pre>", NULL);
	ASSERT_EQ(0, tc_add_job(tc, t, 1000, 2000, c, 1, 2));
	ASSERT_EQ(0, write_page(self->path, tc, 0, NULL));
	tc_free(tc);
	html = slurp(self->path, &len);
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "[[7,\"\\u003c/script\\u003e\\u003cb\\u003e\\\"x\\ufffd\"]]"));
	EXPECT_NE(NULL, strstr(html, "<title>perf gpu timechart: &lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>"));
	free(html);

	NEED_CHROMIUM();
	load(_metadata, self, self->path, "");
	ASSERT_EQ(1, pg->nr_tracks);
	EXPECT_STREQ("a & b </pre>", pg->track[0].name);
	snprintf(frag, sizeof(frag), "#hover=%d,%d", (int)xof(pg, 500), lane_row(pg, 0, 0));
	load(_metadata, self, self->path, frag);
	ASSERT_EQ(1, pg->nr_hover);
	EXPECT_STREQ("job of </script><b>\"x\xef\xbf\xbd (pid 7) | timeline a & b </pre> | "
		     "start 0.000001000 (+0 ns) | duration 1.000 us | context 1 seqno 2",
		     pg->hover[0]);
}

/* ---- Bounding the data. ---- */

/*
 * Eight jobs of 10 ns every 100 ns, one of 2 us at 1 us, one of 10 ns
 * alone at 5 us; 5 entries at most.  Width 128 gives 6 buckets of short
 * jobs + 2 = 8; 256 gives 3 + 2 = 5: jobs 0-2, 3-5 and 6-7 merged, the
 * long one and the lone one kept.
 */
TEST_F(tc, short_jobs_merge_per_bucket)
{
	struct timechart *tc = tc_new("merge");
	struct tc_write_stats st;
	char *html;
	int c, t, i;

	ASSERT_NE(NULL, tc);
	c = tc_client(tc, 1, "a");
	t = tc_track(tc, TC_JOBS, "t", NULL);
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, tc_add_job(tc, t, i * 100, i * 100 + 10, c, 7, i));
	}
	ASSERT_EQ(0, tc_add_job(tc, t, 1000, 3000, c, 7, 8));
	ASSERT_EQ(0, tc_add_job(tc, t, 5000, 5010, c, 7, 9));
	html = page_text(self, tc, 5, &st);
	ASSERT_NE(NULL, html);
	EXPECT_EQ(256, st.bucket_ns);
	EXPECT_EQ(2, st.detail);
	EXPECT_EQ(3, st.merged);
	EXPECT_NE(NULL, strstr(html,
		"\"lanes\":1,\"d\":[1000,2000,0,0,7,8,4000,10,0,0,7,9],"
		"\"m\":[0,210,0,3,30,0,300,210,0,3,30,0,300,110,0,2,20,0]}"));
	EXPECT_NE(NULL, strstr(html, "\"bucket_ns\":256,"));
	free(html);
	tc_free(tc);
}

/*
 * Ticks and samples merge too: 8 of each every 100 ns, 6 entries at
 * most: width 256, buckets of 3, 3 and 2; a metric's point is at the
 * middle of its samples with their mean, min and max.
 */
TEST_F(tc, ticks_and_samples_merge_per_bucket)
{
	struct timechart *tc = tc_new("merge");
	struct tc_write_stats st;
	char *html;
	int v, l, i;

	ASSERT_NE(NULL, tc);
	v = tc_track(tc, TC_VBLANK, "v", NULL);
	l = tc_track(tc, TC_LINE, "l", "x");
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, tc_add_tick(tc, v, i * 100, i));
		ASSERT_EQ(0, tc_add_sample(tc, l, i * 100, i + 1));
	}
	html = page_text(self, tc, 6, &st);
	ASSERT_NE(NULL, html);
	EXPECT_EQ(256, st.bucket_ns);
	EXPECT_EQ(0, st.detail);
	EXPECT_EQ(6, st.merged);
	EXPECT_NE(NULL, strstr(html, "\"name\":\"v\",\"unit\":\"\",\"lanes\":1,"
			       "\"d\":[],\"m\":[0,200,3,300,200,3,300,100,2]}"));
	EXPECT_NE(NULL, strstr(html, "\"name\":\"l\",\"unit\":\"x\",\"lanes\":1,"
			       "\"p\":[100,3,2,1,3,300,3,5,4,6,250,2,7.5,7,8]}"));
	free(html);
	tc_free(tc);
}

TEST_F(tc, bad_items_are_refused)
{
	struct timechart *tc = tc_new("bad");
	int c, j, l;

	ASSERT_NE(NULL, tc);
	c = tc_client(tc, 1, NULL);
	j = tc_track(tc, TC_JOBS, "j", NULL);
	l = tc_track(tc, TC_LINE, "l", NULL);
	EXPECT_EQ(0, c);
	EXPECT_EQ(j, tc_track(tc, TC_JOBS, "j", NULL));
	EXPECT_EQ(-EINVAL, tc_add_job(tc, j, 10, 9, c, 0, 0));
	EXPECT_EQ(-EINVAL, tc_add_job(tc, j, 1, 2, c + 1, 0, 0));
	EXPECT_EQ(-EINVAL, tc_add_job(tc, l, 1, 2, c, 0, 0));
	EXPECT_EQ(-EINVAL, tc_add_tick(tc, j, 1, 0));
	EXPECT_EQ(-EINVAL, tc_add_sample(tc, l, 1, NAN));
	EXPECT_EQ(-EINVAL, tc_add_sample(tc, l, 1, INFINITY));
	EXPECT_EQ(-EINVAL, tc_add_range(tc, 99, 1, 2, 0, "x", false));
	EXPECT_EQ(0, tc_nr_items(tc));
	tc_free(tc);
}

/*
 * A million jobs of 50 ns every 90 ns beside the known model, at most
 * 200000 entries: width 512 (256 would give 351563 buckets), 175781
 * buckets of 5 or 6 jobs merged, the last job alone in its bucket and
 * the 25 items of the known model kept.  The page stays a few MB, loads
 * and draws every column of the dense track without a gap, one box per
 * pixel column of the lane.
 */
#define BIG_JOBS 1000000

TEST_F_TIMEOUT(tc, a_million_jobs_stay_bounded, 300)
{
	struct timechart *tc = tc_new("big");
	const struct page *pg = &self->pg;
	struct tc_write_stats st;
	struct png_image img;
	struct timespec a, b;
	struct stat sb;
	int c, t, i, last;

	ASSERT_NE(NULL, tc);
	known_model(tc);
	c = tc_client(tc, 1400, "storm");
	t = tc_track(tc, TC_JOBS, "vgem unbound", NULL);
	for (i = 0; i < BIG_JOBS; i++) {
		ASSERT_EQ(0, tc_add_job(tc, t, T0 + i * 90ull, T0 + i * 90ull + 50, c,
					i + 1, 1));
	}
	ASSERT_EQ(0, write_page(self->path, tc, 200000, &st));
	tc_free(tc);
	EXPECT_EQ(512, st.bucket_ns);
	EXPECT_EQ(175781, st.merged);
	EXPECT_EQ(26, st.detail);
	ASSERT_EQ(0, stat(self->path, &sb));
	/* Some 18 bytes a summary: well under 8 MB. */
	EXPECT_GT(8 << 20, sb.st_size);
	TH_LOG("%d jobs: page of %lld bytes", BIG_JOBS, (long long)sb.st_size);

	NEED_CHROMIUM();
	clock_gettime(CLOCK_MONOTONIC, &a);
	load(_metadata, self, self->path, "");
	clock_gettime(CLOCK_MONOTONIC, &b);
	TH_LOG("loaded and drawn in Chromium in %.2f s (%d boxes filled)",
	       (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, pg->draws);
	ASSERT_EQ(5, pg->nr_tracks);
	EXPECT_STREQ("vgem unbound", pg->track[1].name);
	/* Thin boxes merged per pixel column: not one fill per summary. */
	EXPECT_GT(2000, pg->draws);

	screenshot(_metadata, self, self->path, "", &img);
	every_track_drawn(_metadata, pg, &img);
	last = (int)xof(pg, 89.99 * MS);
	for (i = (int)ceil(pg->x0); i < last; i++) {
		ASSERT_NE(WHITE, png_pixel(&img, i, lane_row(pg, 1, 0)))
			TH_LOG("column %d of the dense track is blank", i);
	}
	EXPECT_EQ(WHITE, png_pixel(&img, (int)xof(pg, 95 * MS), lane_row(pg, 1, 0)));
	png_free(&img);
}

/* ---- perf gpu timechart on perf.data files. ---- */

enum { EV_INIT, EV_SIGNAL, EV_VBLANK, EV_MARK, EV_OA, EV_OA_DEVICE, NR_EV };

#define T1 1000000000ull	/* the recordings start at 1 s */

struct oa_vals {
	uint32_t ts, clk;
	uint64_t a0, a1;
	uint32_t b0;
	uint32_t a7;	/* EU active cycles of the first EUs */
};

static void put32(uint8_t *r, unsigned int off, uint32_t v)
{
	memcpy(r + off, &v, 4);
}

/* A format 10 report: timer reason, a valid context 0x2a. */
static void make_report(uint8_t *r, const struct oa_vals *v)
{
	memset(r, 0, 256);
	put32(r, 0, 1u << 19 | 1u << 16);
	put32(r, 4, v->ts);
	put32(r, 8, 0x2a);
	put32(r, 12, v->clk);
	put32(r, 16, (uint32_t)v->a0);
	r[160] = v->a0 >> 32;
	put32(r, 20, (uint32_t)v->a1);
	r[161] = v->a1 >> 32;
	put32(r, 192, v->b0);
	put32(r, 44, v->a7);
}

struct synth {
	struct perf_data_writer *w;
	struct gpu_synth_ids ids;
	int err;
};

static void sample(struct synth *s, unsigned int ev, int32_t pid, uint64_t time,
		   const void *raw, ssize_t len)
{
	struct perf_data_sample smp = {
		.event = ev, .pid = pid, .tid = pid, .cpu = 0, .time = time,
		.raw = raw, .raw_size = len,
	};

	if (!s->err)
		s->err = len < 0 ? (int)len : perf_data_write_sample(s->w, &smp);
}

static void init(struct synth *s, int32_t pid, uint64_t time, const char *driver,
		 const char *timeline, uint32_t ctx, uint32_t seq)
{
	uint8_t buf[128];

	sample(s, EV_INIT, pid, time, buf,
	       fence_init_payload(buf, pid, driver, timeline, ctx, seq));
}

static void signal_(struct synth *s, int32_t pid, uint64_t time, const char *driver,
		    const char *timeline, uint32_t ctx, uint32_t seq)
{
	uint8_t buf[128];

	sample(s, EV_SIGNAL, pid, time, buf,
	       fence_payload(buf, pid, driver, timeline, ctx, seq));
}

static void vblank(struct synth *s, uint64_t time, int32_t crtc, uint32_t seq)
{
	uint8_t buf[32];

	sample(s, EV_VBLANK, 0, time, buf, vblank_payload(buf, 0, crtc, seq, time));
}

static void mark(struct synth *s, int32_t pid, uint64_t time, const char *text)
{
	uint8_t buf[128];

	sample(s, EV_MARK, pid, time, buf, mark_payload(buf, pid, text));
}

static void oa(struct synth *s, uint64_t time, const struct oa_vals *v)
{
	uint8_t report[256], buf[512];

	make_report(report, v);
	sample(s, EV_OA, 0, time, buf,
	       gpu_oa_report_payload(buf, sizeof(buf), s->ids.oa_report, 0,
				     19200000000ull + v->ts, 0x2a, 1, report,
				     sizeof(report)));
}

static struct perf_data_writer *open_file(const char *path, struct synth *s)
{
	size_t len;
	void *td = gpu_tracing_data(&s->ids, &len);
	/* After the tracing data: the OA event's id is among its ids. */
	const struct perf_data_event events[NR_EV] = {
		[EV_INIT] = { "dma_fence:dma_fence_init", FENCE_INIT_ID },
		[EV_SIGNAL] = { "dma_fence:dma_fence_signaled", FENCE_ID },
		[EV_VBLANK] = { "drm:drm_vblank_event", VBLANK_ID },
		[EV_MARK] = { "gpuprof:gpuprof_mark", MARK_ID },
		[EV_OA] = { "gpu_oa:oa_report", s->ids.oa_report },
		[EV_OA_DEVICE] = { "gpu_oa:oa_device", s->ids.oa_device },
	};

	if (!td)
		return NULL;
	s->w = perf_data_create(path, events, NR_EV);
	if (s->w && perf_data_set_tracing_data(s->w, td, len)) {
		perf_data_abort(s->w);
		s->w = NULL;
	}
	free(td);
	return s->w;
}

/*
 * 50 ms from 1 s.  glxgears (1200) submits two jobs on i915 gt0:rcs0,
 * context 7, at 0 and 1 ms, signaled at 10 and 20 ms: the second runs
 * from the first's signal, 10-20 ms.  vkcube (1300) a vgem job 3-12 ms,
 * and one never signaled; a signal at 30 ms whose init is not in the
 * file.  vblanks of crtc 0 at 16 and 32 ms, of crtc 1 at 50 ms.  Ranges
 * of glxgears: frame 2-40 ms, draw 4-22 ms inside; vkcube's load from
 * 41 ms has no end.  Three OA reports, 10 ms apart with 11e6 GPU ticks
 * each (1100 MHz): A0 5.5e6 then 11e6 (50 %, 100 % busy), A1 3e6 then
 * 1e6, B0 1000 then 10.  2 signals lost.
 */
static void make_recording(struct __test_metadata *_metadata, const char *path)
{
	static const struct oa_vals r1 = { 1000, 1000, 0, 100, 5, 0 };
	static const struct oa_vals r2 = { 193000, 11001000, 5500000, 3000100, 1005, 0 };
	static const struct oa_vals r3 = { 385000, 22001000, 16500000, 4000100, 1015, 0 };
	struct synth s = { 0 };

	ASSERT_NE(NULL, open_file(path, &s));
	s.err = perf_data_write_comm(s.w, 1200, 1200, "glxgears", T1);
	s.err = s.err ?: perf_data_write_comm(s.w, 1300, 1300, "vkcube", T1);
	init(&s, 1200, T1, "i915", "gt0:rcs0", 7, 1);
	init(&s, 1200, T1 + 1 * MS, "i915", "gt0:rcs0", 7, 2);
	mark(&s, 1200, T1 + 2 * MS, "begin frame");
	init(&s, 1300, T1 + 3 * MS, "vgem", "unbound", 20, 1);
	mark(&s, 1200, T1 + 4 * MS, "begin draw");
	oa(&s, T1 + 5 * MS, &r1);
	signal_(&s, 0, T1 + 10 * MS, "i915", "gt0:rcs0", 7, 1);
	signal_(&s, 0, T1 + 12 * MS, "vgem", "unbound", 20, 1);
	oa(&s, T1 + 15 * MS, &r2);
	vblank(&s, T1 + 16 * MS, 0, 100);
	signal_(&s, 0, T1 + 20 * MS, "i915", "gt0:rcs0", 7, 2);
	mark(&s, 1200, T1 + 22 * MS, "end draw");
	oa(&s, T1 + 25 * MS, &r3);
	signal_(&s, 0, T1 + 30 * MS, "i915", "gt0:rcs0", 9, 5);
	vblank(&s, T1 + 32 * MS, 0, 101);
	init(&s, 1300, T1 + 33 * MS, "vgem", "unbound", 21, 1);
	mark(&s, 1200, T1 + 40 * MS, "end frame");
	mark(&s, 1300, T1 + 41 * MS, "begin load");
	if (!s.err)
		s.err = perf_data_write_lost(s.w, EV_SIGNAL, 2, T1 + 45 * MS);
	vblank(&s, T1 + 50 * MS, 1, 7);
	ASSERT_EQ(0, s.err);
	ASSERT_EQ(0, perf_data_close(s.w));
}

static int timechart_cmd(FIXTURE_DATA(tc) *self, const char *args)
{
	return run_cmd(self->out, sizeof(self->out), "%s timechart %s",
		       perf_gpu_path(), args);
}

/* The JSON pieces the recording above must give, worked out by hand. */
static const char *const recording_json[] = {
	"\"t0_sec\":1,\"t0_nsec\":0,\"span\":50000000,\"bucket_ns\":0,",
	"\"clients\":[[1200,\"glxgears\"],[1300,\"vkcube\"]]",
	"\"names\":[\"draw\",\"frame\",\"load\"]",
	"\"notes\":[\"Ranges with no end in the recording, drawn to its end: 1\","
	"\"Events of dma_fence:dma_fence_signaled lost while recording, missing here: 2\","
	"\"Jobs signaled whose dma_fence_init is not in the recording (submitted before it started), not drawn: 1\","
	"\"Jobs not signaled by the end of the recording, not drawn: 1\"]",
	"{\"kind\":\"jobs\",\"name\":\"i915 gt0:rcs0\",\"unit\":\"\",\"lanes\":1,"
	"\"d\":[0,10000000,0,0,7,1,10000000,10000000,0,0,7,2],\"m\":[]}",
	"{\"kind\":\"jobs\",\"name\":\"vgem unbound\",\"unit\":\"\",\"lanes\":1,"
	"\"d\":[3000000,9000000,0,1,20,1],\"m\":[]}",
	"{\"kind\":\"vblank\",\"name\":\"vblank crtc 0\",\"unit\":\"\",\"lanes\":1,"
	"\"d\":[16000000,100,16000000,101],\"m\":[]}",
	"{\"kind\":\"vblank\",\"name\":\"vblank crtc 1\",\"unit\":\"\",\"lanes\":1,"
	"\"d\":[50000000,7],\"m\":[]}",
	"{\"kind\":\"line\",\"name\":\"OA GPU busy\",\"unit\":\"%\",\"lanes\":1,"
	"\"p\":[15000000,1,50,50,50,10000000,1,100,100,100]}",
	"{\"kind\":\"line\",\"name\":\"OA GPU frequency\",\"unit\":\"MHz\",\"lanes\":1,"
	"\"p\":[15000000,1,1100,1100,1100,10000000,1,1100,1100,1100]}",
	"{\"kind\":\"line\",\"name\":\"OA a1\",\"unit\":\"/s\",\"lanes\":1,"
	"\"p\":[15000000,1,3e+08,3e+08,3e+08,10000000,1,1e+08,1e+08,1e+08]}",
	"{\"kind\":\"line\",\"name\":\"OA b0\",\"unit\":\"/s\",\"lanes\":1,"
	"\"p\":[15000000,1,100000,100000,100000,10000000,1,1000,1000,1000]}",
	"{\"kind\":\"ranges\",\"name\":\"ranges of glxgears (pid 1200)\",\"unit\":\"\","
	"\"lanes\":2,\"d\":[2000000,38000000,0,1,0,-1,2000000,18000000,1,0,0,-1],\"m\":[]}",
	"{\"kind\":\"ranges\",\"name\":\"ranges of vkcube (pid 1300)\",\"unit\":\"\","
	"\"lanes\":1,\"d\":[41000000,9000000,0,2,1,-1],\"m\":[]}",
	"\"items\":17,\"detail\":17,\"merged\":0}",
};

TEST_F(tc, recording_gives_the_expected_data)
{
	char args[512], *html;
	size_t i, len;

	make_recording(_metadata, self->data);
	snprintf(args, sizeof(args), "-i %s -o %s", self->data, self->path);
	ASSERT_EQ(0, timechart_cmd(self, args)) TH_LOG("%s", self->out);
	html = slurp(self->path, &len);
	ASSERT_NE(NULL, html);
	snprintf(args, sizeof(args),
		 "Written 0.050000 s of trace (3 jobs, 17 items: 17 as they are, 0 merged) to %s, %zu bytes.\n",
		 self->path, len);
	EXPECT_STREQ(args, self->out);
	for (i = 0; i < sizeof(recording_json) / sizeof(recording_json[0]); i++) {
		const char *want = recording_json[i];

		EXPECT_NE(NULL, strstr(html, want)) TH_LOG("missing: %.400s", want);
	}
	/* Tracks in the page: jobs, vblank, lines, ranges; each kind in order. */
	EXPECT_LT(strstr(html, "i915 gt0:rcs0"), strstr(html, "vgem unbound"));
	EXPECT_LT(strstr(html, "\"vgem unbound\""), strstr(html, "\"vblank crtc 0\""));
	EXPECT_LT(strstr(html, "\"OA b0\""), strstr(html, "\"ranges of glxgears"));
	free(html);

	/* Counters by name; a window of 9-21 ms cuts what crosses it. */
	snprintf(args, sizeof(args), "-i %s -o %s --oa-counters=c7 --time 1.009,1.021",
		 self->data, self->path);
	ASSERT_EQ(0, timechart_cmd(self, args)) TH_LOG("%s", self->out);
	html = slurp(self->path, &len);
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"t0_sec\":1,\"t0_nsec\":9000000,\"span\":12000000,"));
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA c7\",\"unit\":\"/s\",\"lanes\":1,"
			       "\"p\":[6000000,1,0,0,0]}"));
	EXPECT_NE(NULL, strstr(html, "\"name\":\"i915 gt0:rcs0\",\"unit\":\"\",\"lanes\":1,"
			       "\"d\":[0,1000000,0,0,7,1,1000000,10000000,0,0,7,2],\"m\":[]}"));
	EXPECT_NE(NULL, strstr(html, "\"d\":[0,3000000,0,1,20,1]"));
	EXPECT_NE(NULL, strstr(html, "\"Only 1.009,1.021 is shown; jobs and ranges crossing its edges are cut there\""));
	EXPECT_EQ(NULL, strstr(html, "\"OA a1\""));
	free(html);
}

/* ---- OA metric lines (--oa-metrics). ---- */

#define TGL_GT2 0x9a49

/*
 * A gpu_oa:oa_device sample: a Tiger Lake GT2 recording format 10 with
 * the set @set, one slice of six subslices of 16 EUs (96 EUs).
 */
static void oa_device(struct synth *s, uint64_t time, const char *set)
{
	struct gpuprof_oa_device_info di = {
		.timestamp_frequency = 19200000, .device_id = TGL_GT2,
		.oa_format = GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8,
		.gt_min_frequency = 100000000, .gt_max_frequency = 1300000000,
	};
	union oa_topology topo;
	size_t topo_len = tgl_topology(&topo, 0x3f);
	struct gpuprof_oa_driver drv = { .kernel = 0x060c00 };
	uint8_t buf[1024];

	snprintf(di.metric_set_name, sizeof(di.metric_set_name), "%s", set);
	sample(s, EV_OA_DEVICE, 0, time, buf,
	       gpu_oa_device_payload(buf, sizeof(buf), s->ids.oa_device, &di,
				     &drv, &topo, topo_len));
}

/*
 * The reports of make_metrics_recording(), 10 ms (192000 OA ticks) apart
 * with 11e6 GPU clocks each (AvgGpuCoreFrequency 1.1 GHz): A0 (busy)
 * 5.5e6, 11e6 (GpuBusy 50 %, 100 %), A7 264e6 and 132e6 (EuActive: over
 * 96 EUs, 25 %, 12.5 %); A1 moves most of the raw counters, then B0.
 * After the set changes: 8.25e6 busy, 33e6 EU active (75 %, 3.125 %).
 */
static const struct oa_vals metrics_reports[] = {
	{ 1000, 1000, 0, 100, 5, 0 },
	{ 193000, 11001000, 5500000, 3000100, 1005, 264000000 },
	{ 385000, 22001000, 16500000, 4000100, 1015, 396000000 },
	{ 577000, 33001000, 16500000, 4000200, 1016, 396000000 },
	{ 769000, 44001000, 24750000, 4000300, 1017, 429000000 },
};

/*
 * OA only, from 1 s: RenderBasic's oa_device at 4 ms, reports at 5, 15
 * and 25 ms; with @set2, its oa_device at 26 ms (a new stream: no pair
 * spans it) and reports at 35 and 45 ms.  @device false: no oa_device.
 * The page starts at the first event: the pairs are at 11 and 21 ms
 * (31 and 41 ms with @set2), 1 ms later without the oa_device.
 */
static void make_metrics_recording(struct __test_metadata *_metadata,
				   const char *path, bool device, const char *set2)
{
	struct synth s = { 0 };
	int i;

	ASSERT_NE(NULL, open_file(path, &s));
	if (device)
		oa_device(&s, T1 + 4 * MS, "RenderBasic");
	for (i = 0; i < 3; i++)
		oa(&s, T1 + (5 + 10 * i) * MS, &metrics_reports[i]);
	if (set2) {
		oa_device(&s, T1 + 26 * MS, set2);
		for (i = 3; i < 5; i++)
			oa(&s, T1 + (5 + 10 * i) * MS, &metrics_reports[i]);
	}
	ASSERT_EQ(0, s.err);
	ASSERT_EQ(0, perf_data_close(s.w));
}

/* The page of perf gpu timechart OPTS on self->data (malloc'ed). */
static char *metrics_page(struct __test_metadata *_metadata,
			  FIXTURE_DATA(tc) *self, const char *opts)
{
	char args[512];
	size_t len;

	snprintf(args, sizeof(args), "-i %s -o %s %s", self->data, self->path, opts);
	if (timechart_cmd(self, args)) {
		TH_LOG("%s", self->out);
		return NULL;
	}
	return slurp(self->path, &len);
}

/*
 * What oa/metrics.c computes for counter @sym of set @set between
 * reports @a and @b of metrics_reports, as the page writes it ("%.6g").
 */
static void metric_of(const char *set, const char *sym, int a, int b,
		      char *out, size_t size)
{
	uint8_t ra[256], rb[256];
	struct gpuprof_oa_layout layout;
	struct gpuprof_oa_deltas d = { 0 };
	union oa_topology topo;
	struct oa_metrics_device dev = {
		.device_id = TGL_GT2, .timestamp_frequency = 19200000,
		.gt_min_hz = 100000000, .gt_max_hz = 1300000000,
		.topology = &topo, .topology_len = tgl_topology(&topo, 0x3f),
	};
	static struct oa_metrics m;
	const struct oa_metric_value *v;
	unsigned int idx;
	char err[4096];

	snprintf(out, size, "?");
	if (oa_metrics_init(&m, oa_metrics_set_of(TGL_GT2, set, ""), &dev) ||
	    oa_metrics_select(&m, sym, &idx, 1, err, sizeof(err)) != 1 ||
	    gpuprof_oa_layout(9, GPUPROF_OA_FORMAT_A32u40_A4u32_B8_C8, &layout))
		return;
	make_report(ra, &metrics_reports[a]);
	make_report(rb, &metrics_reports[b]);
	gpuprof_oa_accumulate(&layout, ra, rb, &d);
	oa_metrics_compute(&m, &d);
	v = oa_metrics_value(&m, idx);
	snprintf(out, size, "%.6g", v->is_double ? v->d : (double)v->u);
}

TEST_F(tc, oa_metrics_lines_plot_the_set_counters)
{
	char want[512], eu1[32], eu2[32], *html;

	make_metrics_recording(_metadata, self->data, true, NULL);
	/* Names without regard to case, lines in the order named, once each. */
	html = metrics_page(_metadata, self,
			    "--oa-metrics gpubusy,AvgGpuCoreFrequency,EUACTIVE,GpuBusy");
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "{\"kind\":\"line\",\"name\":\"OA GpuBusy\",\"unit\":\"percent\","
			       "\"lanes\":1,\"p\":[11000000,1,50,50,50,10000000,1,100,100,100]},"
			       "{\"kind\":\"line\",\"name\":\"OA AvgGpuCoreFrequency\",\"unit\":\"hz\","
			       "\"lanes\":1,\"p\":[11000000,1,1.1e+09,1.1e+09,1.1e+09,"
			       "10000000,1,1.1e+09,1.1e+09,1.1e+09]},"
			       "{\"kind\":\"line\",\"name\":\"OA EuActive\",\"unit\":\"percent\","
			       "\"lanes\":1,\"p\":[11000000,1,25,25,25,10000000,1,12.5,12.5,12.5]}"))
		TH_LOG("%.3000s", html);
	/* The same figures from oa/metrics.c on the pairs' deltas. */
	metric_of("RenderBasic", "EuActive", 0, 1, eu1, sizeof(eu1));
	metric_of("RenderBasic", "EuActive", 1, 2, eu2, sizeof(eu2));
	snprintf(want, sizeof(want), "\"name\":\"OA EuActive\",\"unit\":\"percent\","
		 "\"lanes\":1,\"p\":[11000000,1,%s,%s,%s,10000000,1,%s,%s,%s]}",
		 eu1, eu1, eu1, eu2, eu2, eu2);
	EXPECT_NE(NULL, strstr(html, want)) TH_LOG("%s", want);
	/* Busy and frequency stay; no raw counter line. */
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA GPU busy\",\"unit\":\"%\","));
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA GPU frequency\",\"unit\":\"MHz\","));
	EXPECT_EQ(NULL, strstr(html, "\"OA a1\""));
	EXPECT_NE(NULL, strstr(html, "\"items\":10,"));
	free(html);

	/* A counter in bytes, and a window that holds the second pair only. */
	html = metrics_page(_metadata, self, "--oa-metrics GtiReadThroughput --time 1.020,");
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "{\"kind\":\"line\",\"name\":\"OA GtiReadThroughput\","
			       "\"unit\":\"bytes\",\"lanes\":1,\"p\":[5000000,1,0,0,0]}"))
		TH_LOG("%.3000s", html);
	free(html);
}

TEST_F(tc, oa_metrics_by_default_when_the_set_has_them)
{
	char *html;

	/* RenderBasic has GpuBusy and EuActive: they replace a1 and b0. */
	make_metrics_recording(_metadata, self->data, true, NULL);
	html = metrics_page(_metadata, self, "");
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA GPU frequency\",\"unit\":\"MHz\",\"lanes\":1,"
			       "\"p\":[11000000,1,1100,1100,1100,10000000,1,1100,1100,1100]},"
			       "{\"kind\":\"line\",\"name\":\"OA GpuBusy\",\"unit\":\"percent\","
			       "\"lanes\":1,\"p\":[11000000,1,50,50,50,10000000,1,100,100,100]},"
			       "{\"kind\":\"line\",\"name\":\"OA EuActive\",\"unit\":\"percent\","
			       "\"lanes\":1,\"p\":[11000000,1,25,25,25,10000000,1,12.5,12.5,12.5]}"))
		TH_LOG("%.3000s", html);
	EXPECT_EQ(NULL, strstr(html, "\"OA a1\""));
	free(html);
	/* Raw counters still, when asked for. */
	html = metrics_page(_metadata, self, "--oa-counters a1");
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA a1\",\"unit\":\"/s\",\"lanes\":1,"
			       "\"p\":[11000000,1,3e+08,3e+08,3e+08,10000000,1,1e+08,1e+08,1e+08]}"));
	EXPECT_EQ(NULL, strstr(html, "\"OA GpuBusy\""));
	free(html);

	/* Reports of a set without EuActive: the two raw counters, A7 and A1. */
	make_metrics_recording(_metadata, self->data, true, "EuActivity1");
	html = metrics_page(_metadata, self, "");
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA a7\",\"unit\":\"/s\",\"lanes\":1,"
			       "\"p\":[11000000,1,2.64e+10,"));
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA a1\",\"unit\":\"/s\","));
	EXPECT_EQ(NULL, strstr(html, "\"OA GpuBusy\""));
	free(html);
	/* A set the table lacks: the same. */
	make_metrics_recording(_metadata, self->data, true, "NoSuchSet");
	html = metrics_page(_metadata, self, "");
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"name\":\"OA a1\",\"unit\":\"/s\","));
	EXPECT_EQ(NULL, strstr(html, "\"OA GpuBusy\""));
	free(html);
}

/*
 * A second oa_device switches to its set: the pair across it is not
 * drawn, the one after it is computed with the new set.
 */
TEST_F(tc, oa_metrics_follow_a_set_change)
{
	char want[512], busy[32], eu[32], *html;

	make_metrics_recording(_metadata, self->data, true, "ComputeBasic");
	html = metrics_page(_metadata, self, "--oa-metrics GpuBusy,EuActive");
	ASSERT_NE(NULL, html);
	metric_of("ComputeBasic", "GpuBusy", 3, 4, busy, sizeof(busy));
	metric_of("ComputeBasic", "EuActive", 3, 4, eu, sizeof(eu));
	EXPECT_STREQ("75", busy);
	EXPECT_STREQ("3.125", eu);
	snprintf(want, sizeof(want), "{\"kind\":\"line\",\"name\":\"OA GpuBusy\",\"unit\":\"percent\","
		 "\"lanes\":1,\"p\":[11000000,1,50,50,50,10000000,1,100,100,100,"
		 "20000000,1,%s,%s,%s]},"
		 "{\"kind\":\"line\",\"name\":\"OA EuActive\",\"unit\":\"percent\","
		 "\"lanes\":1,\"p\":[11000000,1,25,25,25,10000000,1,12.5,12.5,12.5,"
		 "20000000,1,%s,%s,%s]}", busy, busy, busy, eu, eu, eu);
	EXPECT_NE(NULL, strstr(html, want)) TH_LOG("%.3000s", html);
	free(html);
}

/*
 * The default metric lines in Chromium: labelled with symbol and unit on
 * hover, and a percentage drawn on a scale of 0 to 100 (EuActive's 25 %
 * a quarter up its band, not at the top as its own maximum would put it).
 */
TEST_F_TIMEOUT(tc, oa_metric_lines_in_the_page, 120)
{
	const struct page *pg = &self->pg;
	struct png_image img;
	char frag[256], *html;

	NEED_CHROMIUM();
	make_metrics_recording(_metadata, self->data, true, NULL);
	html = metrics_page(_metadata, self, "");
	ASSERT_NE(NULL, html);
	free(html);
	load(_metadata, self, self->path, "");
	ASSERT_EQ(4, pg->nr_tracks) TH_LOG("%s", pg->status);
	EXPECT_STREQ("OA GpuBusy", pg->track[2].name);
	EXPECT_STREQ("OA EuActive", pg->track[3].name);
	snprintf(frag, sizeof(frag), "#hover=%d,%d&hover=%d,%d",
		 (int)xof(pg, 11 * MS), lane_row(pg, 2, 0),
		 (int)xof(pg, 21 * MS) - 1, lane_row(pg, 3, 0));	/* the last column */
	load(_metadata, self, self->path, frag);
	ASSERT_EQ(2, pg->nr_hover) TH_LOG("%s", pg->status);
	EXPECT_STREQ("OA GpuBusy: 50 percent | time 1.015000000 (+11.000 ms)", pg->hover[0]);
	EXPECT_STREQ("OA EuActive: 12.5 percent | time 1.025000000 (+21.000 ms)", pg->hover[1]);

	screenshot(_metadata, self, self->path, "", &img);
	expect_line_at(_metadata, pg, &img, 3, 11 * MS, 0.25);
	png_free(&img);
}

/*
 * perf gpu timechart OPTS on self->data: exit 1, one line (@want when
 * not NULL), no page.
 */
static void expect_error(struct __test_metadata *_metadata,
			 FIXTURE_DATA(tc) *self, const char *opts,
			 const char *want)
{
	char args[512], *nl;

	unlink(self->path);
	snprintf(args, sizeof(args), "-i %s -o %s %s", self->data, self->path, opts);
	EXPECT_EQ(1, timechart_cmd(self, args)) TH_LOG("%s", self->out);
	nl = strchr(self->out, '\n');
	EXPECT_TRUE(nl && !nl[1]) TH_LOG("%s", self->out);
	if (want)
		EXPECT_STREQ(want, self->out);
	EXPECT_NE(0, access(self->path, F_OK)) TH_LOG("a page was written");
}

TEST_F(tc, oa_metrics_errors_are_one_line)
{
	char want[2048];

	make_metrics_recording(_metadata, self->data, true, NULL);
	expect_error(_metadata, self, "--oa-metrics GpuBusy --oa-counters a1",
		     "perf gpu timechart: --oa-counters and --oa-metrics exclude each other: draw raw counters or metrics\n");
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: metric set RenderBasic "
		 "has no counter 'Nope'; it has: GpuTime, GpuCoreClocks, AvgGpuCoreFrequency, "
		 "VsThreads, HsThreads, DsThreads, GsThreads, PsThreads, CsThreads, GpuBusy, "
		 "EuActive, EuStall, EuThreadOccupancy, Sampler00Busy, Sampler00Bottleneck, "
		 "SamplersBusy, SamplerBottleneck, RasterizedPixels, HiDepthTestFails, "
		 "EarlyDepthTestFails, SamplesKilledInPs, PixelsFailingPostPsTests, "
		 "SamplesWritten, SamplesBlended, SamplerTexels, SamplerTexelMisses, "
		 "SlmBytesRead, SlmBytesWritten, ShaderMemoryAccesses, ShaderAtomics, "
		 "L3ShaderThroughput, ShaderBarriers, GtiReadThroughput, GtiWriteThroughput\n",
		 self->data);
	expect_error(_metadata, self, "--oa-metrics GpuBusy,Nope", want);
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: more than 4 metrics named\n",
		 self->data);
	expect_error(_metadata, self, "--oa-metrics GpuTime,GpuBusy,EuActive,EuStall,VsThreads", want);
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: metric set RenderBasic "
		 "has 34 counters, more than the 4 that fit: name them\n", self->data);
	expect_error(_metadata, self, "--oa-metrics all", want);

	/* A set the table lacks. */
	make_metrics_recording(_metadata, self->data, true, "NoSuchSet");
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: no counters known for "
		 "metric set 'NoSuchSet' on device 0x9a49 (the table holds IGT 1.27.1's sets)\n",
		 self->data);
	expect_error(_metadata, self, "--oa-metrics GpuBusy", want);
	/* A set that lacks a metric drawn so far. */
	make_metrics_recording(_metadata, self->data, true, "EuActivity1");
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: the recording changes "
		 "metric set at 1.026000000 s: metric set EuActivity1 has no counter 'EuActive'; it has: ",
		 self->data);
	expect_error(_metadata, self, "--oa-metrics GpuBusy,EuActive", NULL);
	EXPECT_EQ(0, strncmp(self->out, want, strlen(want))) TH_LOG("%s", self->out);

	/* Reports without an oa_device; no OA at all. */
	make_metrics_recording(_metadata, self->data, false, NULL);
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: OA reports with no "
		 "gpu_oa:oa_device before them (recorded by an older perf gpu record?): "
		 "no metric set to compute\n", self->data);
	expect_error(_metadata, self, "--oa-metrics GpuBusy", want);
	make_recording(_metadata, self->data);
	expect_error(_metadata, self, "--oa-metrics=GpuBusy", want);
	{
		struct synth s = { 0 };

		ASSERT_NE(NULL, open_file(self->data, &s));
		ASSERT_EQ(0, perf_data_close(s.w));
	}
	snprintf(want, sizeof(want), "perf gpu timechart: %s: --oa-metrics: the recording has no "
		 "gpu_oa:oa_device (no OA, or an older perf gpu record): no metric set to compute\n",
		 self->data);
	expect_error(_metadata, self, "--oa-metrics GpuBusy", want);
}

/*
 * drm_sched: sched (pid 1400) submits one job at 0 (scheduled half on
 * context 50, finished on 51), the ring takes it at 20 ms, it ends at
 * 40 ms: one job box 20-40 ms with its queued part 0-20 ms, and no box
 * nor "no init" note for the scheduled half.
 */
TEST_F(tc, drm_sched_job_queued_then_running)
{
	struct synth s = { 0 };
	char args[512], *html;
	size_t len;

	ASSERT_NE(NULL, open_file(self->data, &s));
	init(&s, 1400, T1, "drm_sched", "gfx", 50, 1);
	init(&s, 1400, T1, "drm_sched", "gfx", 51, 1);
	signal_(&s, 0, T1 + 20 * MS, "drm_sched", "gfx", 50, 1);
	signal_(&s, 0, T1 + 40 * MS, "drm_sched", "gfx", 51, 1);
	ASSERT_EQ(0, s.err);
	ASSERT_EQ(0, perf_data_close(s.w));
	snprintf(args, sizeof(args), "-i %s -o %s", self->data, self->path);
	ASSERT_EQ(0, timechart_cmd(self, args)) TH_LOG("%s", self->out);
	html = slurp(self->path, &len);
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"notes\":[]"));
	EXPECT_NE(NULL, strstr(html, "{\"kind\":\"jobs\",\"name\":\"drm_sched gfx\",\"unit\":\"\","
			       "\"lanes\":1,\"d\":[20000000,20000000,0,0,51,1],\"m\":[],"
			       "\"q\":[0,20000000,0,0]}")) TH_LOG("%.3000s", html);
	free(html);
}

/*
 * A job queued 0-40 ms and running 40-80 ms, and another client's job
 * 10-30 ms: they go to two lanes, as the queued part takes its lane
 * too; it is drawn, in a colour of its own (lighter than the running
 * box), before the box.
 */
TEST_F_TIMEOUT(tc, queued_part_drawn_apart, 120)
{
	struct timechart *tc = tc_new("queued");
	const struct page *pg = &self->pg;
	struct png_image img;
	uint32_t queued, running;
	int a, b, j;

	NEED_CHROMIUM();
	ASSERT_NE(NULL, tc);
	a = tc_client(tc, 1200, "glxgears");
	b = tc_client(tc, 1300, "vkcube");
	j = tc_track(tc, TC_JOBS, "drm_sched gfx", NULL);
	ASSERT_EQ(0, tc_add_queued_job(tc, j, T0, T0 + 40 * MS, T0 + 80 * MS, a, 51, 1));
	ASSERT_EQ(0, tc_add_job(tc, j, T0 + 10 * MS, T0 + 30 * MS, b, 60, 1));
	EXPECT_EQ(-EINVAL, tc_add_queued_job(tc, j, T0 + 50 * MS, T0 + 40 * MS,
					     T0 + 80 * MS, a, 51, 2));
	tc_set_span(tc, T0, T0 + 100 * MS);
	ASSERT_EQ(0, write_page(self->path, tc, 0, NULL));
	tc_free(tc);

	load(_metadata, self, self->path, "");
	ASSERT_EQ(1, pg->nr_tracks) TH_LOG("%s", pg->status);
	EXPECT_EQ(2, pg->track[0].lanes);
	screenshot(_metadata, self, self->path, "", &img);
	/* Lanes by start: vkcube's job in lane 0, the queued one in lane 1. */
	queued = pixel_at(pg, &img, 0, 1, 5 * MS);
	running = pixel_at(pg, &img, 0, 1, 60 * MS);
	EXPECT_NE(WHITE, queued);
	EXPECT_NE(WHITE, running);
	EXPECT_NE(queued, running);
	EXPECT_EQ(running, pixel_at(pg, &img, 0, 1, 75 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 0, 1, 90 * MS));
	EXPECT_NE(WHITE, pixel_at(pg, &img, 0, 0, 20 * MS));
	EXPECT_EQ(WHITE, pixel_at(pg, &img, 0, 0, 35 * MS));
	png_free(&img);
}

TEST_F_TIMEOUT(tc, recording_page_draws_every_track, 120)
{
	static const char *const names[] = {
		"i915 gt0:rcs0", "vgem unbound", "vblank crtc 0", "vblank crtc 1",
		"OA GPU busy", "OA GPU frequency", "OA a1", "OA b0",
		"ranges of glxgears (pid 1200)", "ranges of vkcube (pid 1300)",
	};
	const struct page *pg = &self->pg;
	struct png_image img;
	char args[512];
	int i;

	NEED_CHROMIUM();
	make_recording(_metadata, self->data);
	snprintf(args, sizeof(args), "-i %s -o %s", self->data, self->path);
	ASSERT_EQ(0, timechart_cmd(self, args)) TH_LOG("%s", self->out);
	load(_metadata, self, self->path, "");
	ASSERT_EQ(10, pg->nr_tracks) TH_LOG("%s", pg->status);
	for (i = 0; i < 10; i++) {
		EXPECT_STREQ(names[i], pg->track[i].name);
	}
	EXPECT_NE(NULL, strstr(pg->dom, "Jobs not signaled by the end of the recording, not drawn: 1"));
	screenshot(_metadata, self, self->path, "", &img);
	every_track_drawn(_metadata, pg, &img);
	/* The tick at the very end of the recording shows in the last column. */
	EXPECT_EQ(1, inked_columns(pg, &img, pg->track[3].y0, pg->track[3].y1));
	EXPECT_NE(WHITE, png_pixel(&img, (int)pg->x1 - 1, pg->track[3].y0 + 2));
	png_free(&img);
}

/* A recording with its events but no samples: a page that says so. */
TEST_F_TIMEOUT(tc, empty_recording_gives_a_page_without_tracks, 120)
{
	const struct page *pg = &self->pg;
	struct synth s = { 0 };
	char args[512], *html;
	size_t len;

	ASSERT_NE(NULL, open_file(self->data, &s));
	ASSERT_EQ(0, perf_data_close(s.w));
	snprintf(args, sizeof(args), "-i %s -o %s", self->data, self->path);
	ASSERT_EQ(0, timechart_cmd(self, args)) TH_LOG("%s", self->out);
	html = slurp(self->path, &len);
	ASSERT_NE(NULL, html);
	EXPECT_NE(NULL, strstr(html, "\"span\":0,\"bucket_ns\":0,"));
	EXPECT_NE(NULL, strstr(html, "\"tracks\":[],\"items\":0,\"detail\":0,\"merged\":0}"));
	free(html);

	NEED_CHROMIUM();
	load(_metadata, self, self->path, "");
	EXPECT_EQ(0, pg->nr_tracks);
	EXPECT_NE(NULL, strstr(pg->status, "\ntracks 0\n"));
	EXPECT_NE(NULL, strstr(pg->dom, "No GPU events in this recording: nothing to draw."));
}

/*
 * perf gpu timechart on @path: see one_error_line(); a clean run must
 * also have written the page, a failed one must not have.
 */
static int check_one(FIXTURE_DATA(tc) *self, const char *path, char *why,
		     size_t why_size)
{
	char cmd[512];
	int r;

	unlink(self->path);
	snprintf(cmd, sizeof(cmd), "{ timeout 20 %s timechart -i %s -o %s 2>&1 >/dev/null; }",
		 perf_gpu_path(), path, self->path);
	r = one_error_line("timechart", path, cmd, self->out, sizeof(self->out),
			   why, why_size);
	if ((r == 0) != !access(self->path, F_OK))
		return -1;
	return r;
}

TEST_F_TIMEOUT(tc, corrupt_files_give_one_error_line, 600)
{
	char bad[200], why[512];
	size_t len, at;
	char *file;
	int runs = 0, errors = 0, r;

	make_recording(_metadata, self->data);
	file = slurp(self->data, &len);
	ASSERT_NE(NULL, file);
	snprintf(bad, sizeof(bad), "%s/bad.data", self->dir);

	/* Cut in half: an error, no page. */
	write_bytes(bad, file, len / 2);
	EXPECT_EQ(1, check_one(self, bad, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(1, check_one(self, "/nonexistent/perf.data", why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_EQ(1, check_one(self, "/dev/null", why, sizeof(why))) TH_LOG("%s", why);
	/* Cut anywhere, or a byte flipped: an error or a page, never worse. */
	for (at = 0; at < len; at += 41) {
		write_bytes(bad, file, at);
		r = check_one(self, bad, why, sizeof(why));
		ASSERT_LE(0, r) TH_LOG("cut at %zu: %s", at, why);
		runs++;
		errors += r;
		file[at] ^= 0xff;
		write_bytes(bad, file, len);
		file[at] ^= 0xff;
		r = check_one(self, bad, why, sizeof(why));
		ASSERT_LE(0, r) TH_LOG("flip at %zu: %s", at, why);
		runs++;
		errors += r;
	}
	TH_LOG("%d runs, %d errors", runs, errors);
	EXPECT_LT(0, errors);
	free(file);
}

/*
 * perf gpu timechart --oa-metrics GpuBusy,EuActive on @path: 0 for a
 * clean run that wrote the page, 1 for exit 1 with one line about @path
 * and no page, -1 for anything else.
 */
static int check_metrics(FIXTURE_DATA(tc) *self, const char *path, char *why,
			 size_t why_size)
{
	char prefix[256], *nl;
	int st;

	unlink(self->path);
	st = run_cmd(self->out, sizeof(self->out),
		     "{ timeout 20 %s timechart --oa-metrics GpuBusy,EuActive -i %s -o %s 2>&1 >/dev/null; }",
		     perf_gpu_path(), path, self->path);
	snprintf(why, why_size, "status %d: %.300s", st, self->out);
	if (st == 0)
		return self->out[0] || access(self->path, F_OK) ? -1 : 0;
	snprintf(prefix, sizeof(prefix), "perf gpu timechart: %s: ", path);
	nl = strchr(self->out, '\n');
	if (st != 1 || strncmp(self->out, prefix, strlen(prefix)) || !nl || nl[1] ||
	    !access(self->path, F_OK))
		return -1;
	return 1;
}

/*
 * A recording with metric sets, a byte flipped: by default an error or a
 * page, as any recording; with --oa-metrics also, the error maybe the
 * one saying why no metric can be drawn (a set name flipped).
 */
TEST_F_TIMEOUT(tc, corrupt_metrics_recordings_give_one_error_line, 600)
{
	char bad[200], why[512];
	int runs = 0, errors = 0, r;
	size_t len, at;
	char *file;

	make_metrics_recording(_metadata, self->data, true, "ComputeBasic");
	file = slurp(self->data, &len);
	ASSERT_NE(NULL, file);
	snprintf(bad, sizeof(bad), "%s/bad.data", self->dir);
	for (at = 0; at < len; at += 61) {
		file[at] ^= 0xff;
		write_bytes(bad, file, len);
		file[at] ^= 0xff;
		r = check_one(self, bad, why, sizeof(why));
		ASSERT_LE(0, r) TH_LOG("flip at %zu: %s", at, why);
		errors += r;
		r = check_metrics(self, bad, why, sizeof(why));
		ASSERT_LE(0, r) TH_LOG("flip at %zu, --oa-metrics: %s", at, why);
		errors += r;
		runs += 2;
	}
	TH_LOG("%d runs, %d errors", runs, errors);
	EXPECT_LT(0, errors);
	free(file);
}

TEST_F(tc, bad_options_are_usage_errors)
{
	char args[512];

	make_recording(_metadata, self->data);
	snprintf(args, sizeof(args), "-i %s -o %s --time 2,1", self->data, self->path);
	EXPECT_EQ(1, timechart_cmd(self, args));
	EXPECT_STREQ("perf gpu timechart: bad --time '2,1': want START,END in seconds\n",
		     self->out);
	snprintf(args, sizeof(args), "-i %s -o %s --oa-counters=a1,z9", self->data, self->path);
	EXPECT_EQ(1, timechart_cmd(self, args));
	EXPECT_STREQ("perf gpu timechart: bad --oa-counters 'a1,z9': want up to 4 of a0..a44, b0..b7, c0..c7\n",
		     self->out);
	/* libsubcmd's own words, as perf's. */
	EXPECT_EQ(129, timechart_cmd(self, "--no-such-option"));
	EXPECT_EQ(0, strncmp(self->out, "  Error: unknown option `no-such-option'\n\n"
			     " Usage: perf gpu timechart [<options>]\n", 81)) TH_LOG("%s", self->out);
	snprintf(args, sizeof(args), "-i %s -o /nonexistent/dir/page.html", self->data);
	EXPECT_EQ(1, timechart_cmd(self, args));
	EXPECT_STREQ("perf gpu timechart: /nonexistent/dir/page.html: No such file or directory\n",
		     self->out);
	EXPECT_NE(0, access(self->path, F_OK));
}

TEST_HARNESS_MAIN
