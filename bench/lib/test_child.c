// SPDX-License-Identifier: GPL-2.0
/*
 * test_child.c - host unit tests of starting and waiting for other
 * programs: where their output goes, their exit status, and what is
 * left open when one cannot be run.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "child.h"

/* All of fd, to its end, into buf; closed. */
static void read_to_end(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	while (used + 1 < len &&
	       (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += n;
	buf[used] = '\0';
	close(fd);
}

/* How many fds this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Each pipe has its own stream; the end of both is seen with the child's. */
TEST(pipes_and_status)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	char out[64], err[64];
	struct tw_child c;

	ASSERT_EQ(0, tw_child_start(&c, argv, TW_CHILD_PIPE, TW_CHILD_PIPE));
	ASSERT_GT(c.pid, 0);
	read_to_end(c.out, out, sizeof(out));
	read_to_end(c.err, err, sizeof(err));
	EXPECT_STREQ("out\n", out);
	EXPECT_STREQ("err\n", err);
	EXPECT_EQ(3, tw_child_wait(c.pid));
}

/*
 * NULL is /dev/null; with no pipe asked for, no fd is given.  (The shell's
 * stdout kept as fd 3: readlink's own goes to the pipe.)
 */
TEST(dev_null)
{
	char *argv[] = { "sh", "-c",
			 "exec 3>&1; readlink /proc/self/fd/3 >&2", NULL };
	char err[64];
	struct tw_child c;

	ASSERT_EQ(0, tw_child_start(&c, argv, TW_CHILD_NULL, TW_CHILD_PIPE));
	EXPECT_EQ(-1, c.out);
	read_to_end(c.err, err, sizeof(err));
	EXPECT_STREQ("/dev/null\n", err);
	EXPECT_EQ(0, tw_child_wait(c.pid));
}

/* Ours stays ours: the child writes where we do. */
TEST(inherit)
{
	char *argv[] = { "sh", "-c", "readlink /proc/self/fd/1", NULL };
	char here[64], there[64] = "";
	struct tw_child c;
	ssize_t n;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(STDOUT_FILENO, dup2(p[1], STDOUT_FILENO));
	close(p[1]);
	n = readlink("/proc/self/fd/1", here, sizeof(here) - 1);
	ASSERT_GT(n, 0);
	here[n] = '\0';
	ASSERT_EQ(0, tw_child_start(&c, argv, TW_CHILD_INHERIT,
				    TW_CHILD_INHERIT));
	EXPECT_EQ(0, tw_child_wait(c.pid));
	close(STDOUT_FILENO);
	read_to_end(p[0], there, sizeof(there));
	EXPECT_EQ(0, strncmp(here, there, strlen(here)));
	EXPECT_EQ('\n', there[strlen(here)]);
}

/* A program that cannot be run: errno says why, nothing is left open. */
TEST(not_found)
{
	char *argv[] = { "/nonexistent/tw-child-test", NULL };
	int before = open_fds();
	struct tw_child c;

	ASSERT_GT(before, 0);
	errno = 0;
	EXPECT_EQ(-1, tw_child_start(&c, argv, TW_CHILD_PIPE, TW_CHILD_PIPE));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, c.pid);
	EXPECT_EQ(before, open_fds());
}

/* A child a signal ended has no exit status. */
TEST(signalled)
{
	char *argv[] = { "sh", "-c", "kill -TERM $$", NULL };
	struct tw_child c;

	ASSERT_EQ(0, tw_child_start(&c, argv, TW_CHILD_NULL, TW_CHILD_NULL));
	EXPECT_EQ(-1, tw_child_wait(c.pid));
}

TEST_HARNESS_MAIN
