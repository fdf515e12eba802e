/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Commands read from a file, one a line, as "ip -batch" reads them: the
 * words of a line are those that would follow the program's options on
 * its command line.
 *
 * Blanks separate words.  A word that starts with # (outside quotes)
 * starts a comment, up to the end of the line.  Text in '...' is taken as
 * it is; text in "..." too, but for the escapes the text output writes
 * (print.h): \" \\ \n \t and \uXXXX (XXXX from 0001 to 007f).  A quoted
 * part may stand inside a word: a"b c"d is one word.  A line that ends
 * with a backslash goes on on the next.
 */
#ifndef TW_BATCH_H
#define TW_BATCH_H

#include <stdbool.h>

/* Most words of one command, the NULL after them included. */
#define TW_BATCH_MAX_WORDS	256

/*
 * Split line into words, in place: argv[0..n-1] and argv[n] NULL; returns
 * n.  A malformed line returns -1 with *why saying what is wrong.
 */
int tw_split_words(char *line, char *argv[TW_BATCH_MAX_WORDS],
		   const char **why);

/* Run the words of one command; returns an exit code of timewire(8). */
typedef int (*tw_batch_fn)(int argc, char **argv);

/*
 * Run every command of file ("-": stdin, named "stdin" in errors), up to
 * the first that fails unless force.  Errors and warnings said meanwhile
 * start with "FILE:LINE: ", the command's first line.  Returns the exit
 * code of the first command that failed, else TW_EXIT_OK; TW_EXIT_SYS
 * when the file cannot be read.
 */
int tw_batch_run(const char *file, bool force, tw_batch_fn run);

#endif /* TW_BATCH_H */
