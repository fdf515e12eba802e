// SPDX-License-Identifier: GPL-2.0
/*
 * Other programs, started and waited for.  posix_spawnp(), not fork():
 * a program that cannot be run is said here, by errno, not by an exit
 * status the program itself might give.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* The pipes of stdout and stderr: [i][0] ours, [i][1] the child's. */
struct child_pipes {
	int fd[2][2];
};

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

static void close_ends(struct child_pipes *p, int end)
{
	close_fd(p->fd[0][end]);
	close_fd(p->fd[1][end]);
}

/*
 * Close-on-exec, both ends: the child's copy of its end is the dup2()
 * one alone, so that a reader sees the end when the child ends.  0 or an
 * errno value; what was opened is for the caller to close.
 */
static int open_pipes(struct child_pipes *p, enum tw_child_fd out,
		      enum tw_child_fd err)
{
	int i;

	for (i = 0; i < 2; i++)
		p->fd[i][0] = p->fd[i][1] = -1;
	if ((out == TW_CHILD_PIPE && pipe2(p->fd[0], O_CLOEXEC)) ||
	    (err == TW_CHILD_PIPE && pipe2(p->fd[1], O_CLOEXEC)))
		return errno;
	return 0;
}

/* The child's fd as how says, from its pipe's end if a pipe. */
static int redirect(posix_spawn_file_actions_t *fa, int fd,
		    enum tw_child_fd how, int pipe_end)
{
	if (how == TW_CHILD_NULL)
		return posix_spawn_file_actions_addopen(fa, fd, "/dev/null",
							O_WRONLY, 0);
	if (how == TW_CHILD_PIPE)
		return posix_spawn_file_actions_adddup2(fa, pipe_end, fd);
	return 0;
}

static int spawn(pid_t *pid, char *const argv[], const struct child_pipes *p,
		 enum tw_child_fd out, enum tw_child_fd err)
{
	posix_spawn_file_actions_t fa;
	int ret = posix_spawn_file_actions_init(&fa);

	if (ret)
		return ret;
	ret = redirect(&fa, STDOUT_FILENO, out, p->fd[0][1]);
	if (!ret)
		ret = redirect(&fa, STDERR_FILENO, err, p->fd[1][1]);
	/* What we have written comes before what the child writes. */
	fflush(NULL);
	if (!ret)
		ret = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}

int tw_child_start(struct tw_child *c, char *const argv[],
		   enum tw_child_fd out, enum tw_child_fd err)
{
	struct child_pipes p;
	int ret = open_pipes(&p, out, err);

	c->pid = -1;
	c->out = c->err = -1;
	if (!ret)
		ret = spawn(&c->pid, argv, &p, out, err);
	close_ends(&p, 1);
	if (ret) {
		close_ends(&p, 0);
		c->pid = -1;
		errno = ret;
		return -1;
	}
	c->out = p.fd[0][0];
	c->err = p.fd[1][0];
	return 0;
}

int tw_child_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
