// SPDX-License-Identifier: GPL-2.0-only
/*
 * glframes [-n FRAMES] [-w WORK] [-d RENDER_NODE] [-m]: a GLES client of a
 * render node, for the tests on a real 3D driver (virtio_gpu with virgl,
 * Documentation/testing.rst "Real programs").  Through Mesa's EGL on GBM,
 * with no surface, it renders FRAMES frames into a texture, each WORK
 * full-screen quads of a fragment shader that loops, and waits for each
 * with glFinish().  Each frame is bracketed with a GL_TIME_ELAPSED_EXT
 * query (GL_EXT_disjoint_timer_query: the GPU's own clock; virgl runs it
 * on the host's GL) and, with -m, with "begin frame" / "end frame" written
 * to /dev/gpuprof/marker around the frame and its glFinish().
 *
 * Prints one line per frame, "frame N gpu_ns G cpu_ns C" (G the query's
 * result, C the CPU time from before the first draw to after glFinish()),
 * then "frames N gpu_ns G cpu_ns C disjoint D" with the sums.  Exits 2
 * when a step of the set-up fails, saying which, 1 when the driver has no
 * timer queries.  Built without sanitizers: Mesa's drivers are loaded
 * into it and keep memory to the end.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <fcntl.h>
#include <gbm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SIZE 512

static PFNGLGENQUERIESEXTPROC gen_queries;
static PFNGLBEGINQUERYEXTPROC begin_query;
static PFNGLENDQUERYEXTPROC end_query;
static PFNGLGETQUERYOBJECTUI64VEXTPROC query_u64;

static const char *vs_src =
	"attribute vec2 pos;\n"
	"varying vec2 uv;\n"
	"void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";

/* A loop per pixel: work a software rasteriser takes its time over. */
static const char *fs_src =
	"precision mediump float;\n"
	"varying vec2 uv;\n"
	"uniform float seed;\n"
	"void main() {\n"
	"  vec2 z = uv;\n"
	"  for (int i = 0; i < 24; i++)\n"
	"    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + uv + seed;\n"
	"  gl_FragColor = vec4(fract(z), 0.5, 1.0);\n"
	"}\n";

static void die(const char *what)
{
	fprintf(stderr, "glframes: %s\n", what);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	GLint ok = 0;

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok)
		die("a shader does not compile");
	return s;
}

static void mark(int fd, const char *text)
{
	if (fd >= 0 && write(fd, text, strlen(text)) < 0)
		die("writing /dev/gpuprof/marker");
}

static void setup_egl(const char *node)
{
	static const EGLint ctx_attr[] = { EGL_CONTEXT_CLIENT_VERSION, 2,
					   EGL_NONE };
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
	struct gbm_device *gbm;
	EGLDisplay dpy;
	EGLContext ctx;
	const char *ext;
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("cannot open the render node");
	gbm = gbm_create_device(fd);
	if (!gbm)
		die("gbm_create_device failed");
	get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
		eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display)
		die("no eglGetPlatformDisplayEXT");
	dpy = get_display(EGL_PLATFORM_GBM_KHR, gbm, NULL);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
		die("eglInitialize failed");
	ext = eglQueryString(dpy, EGL_EXTENSIONS);
	if (!ext || !strstr(ext, "EGL_KHR_surfaceless_context") ||
	    !strstr(ext, "EGL_KHR_no_config_context"))
		die("no surfaceless context in EGL");
	if (!eglBindAPI(EGL_OPENGL_ES_API))
		die("eglBindAPI failed");
	ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctx_attr);
	if (ctx == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		die("no GLES 2 context");
}

/* GL_EXT_disjoint_timer_query's entry points; exit 1 without them. */
static void load_timer_query(void)
{
	const char *ext = (const char *)glGetString(GL_EXTENSIONS);

	gen_queries = (void *)eglGetProcAddress("glGenQueriesEXT");
	begin_query = (void *)eglGetProcAddress("glBeginQueryEXT");
	end_query = (void *)eglGetProcAddress("glEndQueryEXT");
	query_u64 = (void *)eglGetProcAddress("glGetQueryObjectui64vEXT");
	if (!ext || !strstr(ext, "GL_EXT_disjoint_timer_query") ||
	    !gen_queries || !begin_query || !end_query || !query_u64) {
		fprintf(stderr, "glframes: no GL_EXT_disjoint_timer_query\n");
		exit(1);
	}
}

static void setup_gl(GLint *seed)
{
	static const GLfloat quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	GLuint prog, tex, fbo, buf;

	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, SIZE, SIZE, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
			       GL_TEXTURE_2D, tex, 0);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		die("the framebuffer is not complete");
	glViewport(0, 0, SIZE, SIZE);

	prog = glCreateProgram();
	glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_src));
	glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs_src));
	glBindAttribLocation(prog, 0, "pos");
	glLinkProgram(prog);
	glUseProgram(prog);
	*seed = glGetUniformLocation(prog, "seed");

	glGenBuffers(1, &buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf);
	glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
	glEnableVertexAttribArray(0);
	/* Shaders compiled and state sent before the first frame counts. */
	glFinish();
}

int main(int argc, char **argv)
{
	const char *node = "/dev/dri/renderD128";
	uint64_t gpu_sum = 0, cpu_sum = 0, t0, gpu_ns;
	int frames = 30, work = 4, marks = 0, opt, i, k, fd = -1;
	GLint seed, disjoint = 0;
	GLuint q;

	while ((opt = getopt(argc, argv, "n:w:d:m")) != -1) {
		switch (opt) {
		case 'n':
			frames = atoi(optarg);
			break;
		case 'w':
			work = atoi(optarg);
			break;
		case 'd':
			node = optarg;
			break;
		case 'm':
			marks = 1;
			break;
		default:
			fprintf(stderr, "usage: glframes [-n FRAMES] [-w WORK] [-d NODE] [-m]\n");
			return 2;
		}
	}
	if (frames < 1 || work < 1)
		die("-n and -w want a number above 0");
	if (marks) {
		fd = open("/dev/gpuprof/marker", O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			die("cannot open /dev/gpuprof/marker");
	}
	setup_egl(node);
	load_timer_query();
	setup_gl(&seed);
	gen_queries(1, &q);
	/* A context's first query gives garbage on virgl (1037 s seen). */
	begin_query(GL_TIME_ELAPSED_EXT, q);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	end_query(GL_TIME_ELAPSED_EXT);
	glFinish();
	query_u64(q, GL_QUERY_RESULT_EXT, &gpu_ns);
	for (i = 0; i < frames; i++) {
		mark(fd, "begin frame");
		t0 = now_ns();
		begin_query(GL_TIME_ELAPSED_EXT, q);
		for (k = 0; k < work; k++) {
			glUniform1f(seed, (GLfloat)(i * work + k) / 1000.0f);
			glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
		}
		end_query(GL_TIME_ELAPSED_EXT);
		glFinish();
		t0 = now_ns() - t0;
		mark(fd, "end frame");
		query_u64(q, GL_QUERY_RESULT_EXT, &gpu_ns);
		glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
		printf("frame %d gpu_ns %llu cpu_ns %llu\n", i,
		       (unsigned long long)gpu_ns, (unsigned long long)t0);
		gpu_sum += gpu_ns;
		cpu_sum += t0;
	}
	printf("frames %d gpu_ns %llu cpu_ns %llu disjoint %d\n", frames,
	       (unsigned long long)gpu_sum, (unsigned long long)cpu_sum,
	       disjoint);
	return 0;
}
