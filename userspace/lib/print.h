/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The single output path of the timewire programs.
 *
 * Every command prints through these calls.  In text mode a field comes out
 * as "key value" on the current line (a value that is not one word in
 * quotes, escaped as in JSON); in JSON mode as "key": value inside
 * the current object.  The whole output of one command is one JSON object.
 */
#ifndef TW_PRINT_H
#define TW_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

void print_init(bool json, bool pretty);
void print_finish(void);
bool print_is_json(void);

/* Objects and arrays; key is NULL for an element of an array. */
void open_object(const char *key);
void close_object(void);
void open_array(const char *key);
void close_array(void);

void print_u64(const char *key, uint64_t val);
void print_s64(const char *key, int64_t val);
void print_uint(const char *key, unsigned int val);
void print_string(const char *key, const char *val);
/* Text shows the value alone (a heading such as a module name). */
void print_name(const char *key, const char *val);
/* Text shows one of two words; JSON a boolean. */
void print_bool(const char *key, bool val, const char *yes, const char *no);
void print_double(const char *key, double val);
/* A value that is absent: JSON null; text shows the key and text. */
void print_null(const char *key, const char *text);

/* Text only: end the current line / print a line of prose. */
void print_nl(void);
void print_text(const char *fmt, ...) __printf(1, 2);

#endif /* TW_PRINT_H */
