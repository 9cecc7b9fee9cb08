/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mtx.c: Matrix Market (.mtx) reader and writer, see ks-mtx.h.
 *
 * Choices where the format description leaves room (or where real-world files
 * stray from it):
 *
 *  - Duplicate coordinate entries are summed, as SuiteSparse, scipy and most
 *    assembly-style readers do.  The NIST text says entries "should" be
 *    unique, but finite-element exports routinely emit one entry per element
 *    contribution and rely on summing; refusing them would reject useful
 *    files, and keeping only the last one would silently give wrong values.
 *    A duplicated pattern entry therefore reads as 2.0.
 *  - In symmetric and skew-symmetric coordinate files an entry above the
 *    diagonal is accepted and mirrored like one below it: some writers store
 *    the upper triangle instead of the lower one.  Together with summing,
 *    giving both (i,j) and (j,i) adds them, which is consistent.
 *  - "hermitian" with real, integer or pattern entries is read as
 *    "symmetric": the conjugate of a real number is itself, so the two say
 *    the same (the format means hermitian for complex files, which are
 *    refused; some writers label every self-adjoint matrix so).
 *  - Comment and blank lines are skipped anywhere after the header, not only
 *    before the size line, and CR-LF line ends and a UTF-8 BOM are tolerated.
 *  - Keywords of the header are case-insensitive, the banner included.
 *  - "integer" values must be integers; "real" values must be finite (NaN or
 *    infinity in an input matrix is a broken file, not data worth solving).
 *  - Each entry line holds exactly one entry; anything after it is an error,
 *    so a file with the wrong field type or a truncated column cannot be
 *    misread silently.
 *  - The writer refuses non-finite values (KS_MTX_ERROR_UNSUPPORTED) because
 *    the reader would refuse the file it produced.
 */
#define G_LOG_DOMAIN "ks-mtx"

#include "ks-mtx.h"
#include "ks-io-file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (ks-mtx-error-quark, ks_mtx_error)

typedef enum {
  MTX_COORDINATE,
  MTX_ARRAY,
} MtxFormat;

typedef enum {
  MTX_REAL,
  MTX_INTEGER,
  MTX_PATTERN,
} MtxField;

typedef enum {
  MTX_GENERAL,
  MTX_SYMMETRIC,
  MTX_SKEW_SYMMETRIC,
} MtxSymmetry;

/* The largest number of fields any line of interest has (the header has 5);
 * split_fields counts past it so that messages can say how many there were. */
#define MTX_MAX_FIELDS 6

/* Tokens quoted in messages are cut to this many bytes, so that a binary file
 * does not produce a megabyte-long error message. */
#define MTX_QUOTE_MAX 40

/* The longest line a reader takes.  A Matrix Market data line is a few dozen
 * bytes; comments may be longer, but a line past this is a binary file. */
#define MTX_LINE_MAX (64 * 1024)

/* Bytes a file may hold per dense element it describes (an entry line of
 * two 10-digit indices and a 17-digit value is under 50 bytes), plus room for
 * comments: a larger file is not the matrix it claims to be, and reading it
 * would only take time. */
#define MTX_BYTES_PER_ELEMENT 128
#define MTX_COMMENT_ALLOWANCE (16 * 1024 * 1024)

typedef struct {
  GBufferedInputStream *in;
  const char           *name;      /* file name for messages, UTF-8 */
  guint64               lineno;    /* 1-based number of the line last read */
  guint64               bytes;     /* read so far */
  guint64               max_bytes; /* more is refused (see MTX_BYTES_PER_ELEMENT) */
} MtxReader;

static void set_line_error (MtxReader   *r,
                            GError     **error,
                            KsMtxError   code,
                            const char  *format,
                            ...) G_GNUC_PRINTF (4, 5);

static void
set_line_error (MtxReader   *r,
                GError     **error,
                KsMtxError   code,
                const char  *format,
                ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, KS_MTX_ERROR, code, "%s:%" G_GUINT64_FORMAT ": %s",
               r->name, r->lineno, msg);
}

/* A token from the file made safe for a GError message: the file may hold
 * anything, while messages must be short, valid UTF-8. */
static char *
quote_token (const char *tok)
{
  gsize len = strlen (tok);
  g_autofree char *valid = g_utf8_make_valid (tok, MIN (len, MTX_QUOTE_MAX));

  if (len > MTX_QUOTE_MAX)
    return g_strconcat (valid, "…", NULL);
  return g_steal_pointer (&valid);
}

/* Reads the next raw line into *out_line (freeing what was there), with the
 * newline stripped; *out_line is NULL at end of file.  Returns FALSE on a read
 * error, on a NUL byte (which would otherwise silently cut the line short) and
 * on a line longer than MTX_LINE_MAX: GDataInputStream's own read_line grows
 * its line without end, so a file without newlines (a binary, /dev/zero) was
 * read into memory whole.  The line is found in the stream's buffer, which
 * holds MTX_LINE_MAX bytes, and nothing past it is ever allocated. */
static gboolean
reader_next_line (MtxReader  *r,
                  char      **out_line,
                  GError    **error)
{
  GBufferedInputStream *buffered = G_BUFFERED_INPUT_STREAM (r->in);
  gsize capacity = g_buffered_input_stream_get_buffer_size (buffered);
  const char *buf;
  const char *nl;
  gsize avail = 0, len, skip;

  g_clear_pointer (out_line, g_free);

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      gssize got;

      buf = g_buffered_input_stream_peek_buffer (buffered, &avail);
      nl = avail > 0 ? memchr (buf, '\n', avail) : NULL;
      if (nl != NULL || avail == capacity)
        break;
      got = g_buffered_input_stream_fill (buffered, (gssize) (capacity - avail),
                                          NULL, &local_error);
      if (got < 0)
        {
          g_set_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO,
                       "%s: cannot read line %" G_GUINT64_FORMAT ": %s",
                       r->name, r->lineno + 1, local_error->message);
          return FALSE;
        }
      if (got == 0)
        break;   /* end of file */
    }

  if (avail == 0)
    return TRUE;

  r->lineno++;
  if (nl == NULL && avail == capacity)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "line is longer than %u bytes: not a Matrix Market file?",
                      (guint) MTX_LINE_MAX);
      return FALSE;
    }

  len = nl != NULL ? (gsize) (nl - buf) : avail;
  skip = nl != NULL ? len + 1 : len;
  r->bytes += skip;
  if (r->bytes > r->max_bytes)
    {
      set_line_error (r, error, KS_MTX_ERROR_TOO_LARGE,
                      "the file goes on past %" G_GUINT64_FORMAT " bytes, "
                      "more than the matrix it declares can take",
                      r->max_bytes);
      return FALSE;
    }
  if (memchr (buf, '\0', len) != NULL)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "unexpected NUL byte");
      return FALSE;
    }
  *out_line = g_strndup (buf, len);
  if (g_input_stream_skip (G_INPUT_STREAM (r->in), skip, NULL, NULL) != (gssize) skip)
    {
      g_clear_pointer (out_line, g_free);
      g_set_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO,
                   "%s: cannot read past line %" G_GUINT64_FORMAT,
                   r->name, r->lineno);
      return FALSE;
    }
  return TRUE;
}

/* Like reader_next_line, but skips comment lines and blank lines. */
static gboolean
reader_next_data_line (MtxReader  *r,
                       char      **out_line,
                       GError    **error)
{
  for (;;)
    {
      const char *p;

      if (!reader_next_line (r, out_line, error))
        return FALSE;
      if (*out_line == NULL)
        return TRUE;

      for (p = *out_line; g_ascii_isspace (*p); p++)
        ;
      if (*p != '\0' && *p != '%')
        return TRUE;
    }
}

/* Splits line in place at ASCII whitespace (which also eats a CR from CR-LF
 * files).  Stores at most max_fields pointers but returns the total count. */
static guint
split_fields (char   *line,
              char  **fields,
              guint   max_fields)
{
  guint n = 0;
  char *p = line;

  for (;;)
    {
      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;

      if (n < max_fields)
        fields[n] = p;
      n++;

      while (*p != '\0' && !g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      *p++ = '\0';
    }

  return n;
}

/* Parses a non-negative decimal integer made only of digits (no sign, no
 * spaces).  Saturates at G_MAXUINT64 instead of wrapping, so that an absurd
 * number fails the later range or size checks rather than passing them. */
static gboolean
parse_count (const char *s,
             guint64    *out)
{
  guint64 v = 0;

  if (*s == '\0')
    return FALSE;

  for (; *s != '\0'; s++)
    {
      guint digit;

      if (!g_ascii_isdigit (*s))
        return FALSE;
      digit = (guint) (*s - '0');
      if (v > (G_MAXUINT64 - digit) / 10)
        v = G_MAXUINT64;
      else
        v = v * 10 + digit;
    }

  *out = v;
  return TRUE;
}

/* Parses one value field; g_ascii_* keep it independent of LC_NUMERIC. */
static gboolean
parse_value (MtxReader   *r,
             const char  *tok,
             MtxField     field,
             double      *out,
             GError     **error)
{
  char *end = NULL;

  if (field == MTX_INTEGER)
    {
      gint64 v;

      errno = 0;
      v = g_ascii_strtoll (tok, &end, 10);
      if (end == tok || *end != '\0' || errno == ERANGE)
        {
          g_autofree char *q = quote_token (tok);
          set_line_error (r, error, KS_MTX_ERROR_PARSE,
                          "invalid integer value “%s”", q);
          return FALSE;
        }
      *out = (double) v;
      return TRUE;
    }

  g_assert (field == MTX_REAL);

  /* errno is not consulted: ERANGE on underflow still yields the correctly
   * rounded (subnormal or zero) result, and overflow shows up as infinity. */
  *out = g_ascii_strtod (tok, &end);
  if (end == tok || *end != '\0')
    {
      g_autofree char *q = quote_token (tok);
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "invalid real value “%s”", q);
      return FALSE;
    }
  if (!isfinite (*out))
    {
      g_autofree char *q = quote_token (tok);
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "non-finite value “%s”", q);
      return FALSE;
    }
  return TRUE;
}

/* The header's banner and object (only a matrix is read); n is how many
 * fields split_fields found in it. */
static gboolean
check_banner (MtxReader  *r,
              char      **f,
              guint       n,
              GError    **error)
{
  g_autofree char *q = NULL;

  if (n == 0 || g_ascii_strcasecmp (f[0], "%%MatrixMarket") != 0)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "not a Matrix Market file (no “%%%%MatrixMarket” header)");
      return FALSE;
    }
  if (n != 5)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "expected 5 fields in the header, got %u", n);
      return FALSE;
    }
  if (g_ascii_strcasecmp (f[1], "vector") == 0)
    {
      /* Used by some extensions of the format: well-formed, but we have no
       * use for it. */
      set_line_error (r, error, KS_MTX_ERROR_UNSUPPORTED, "vector objects are not supported (only matrix)");
      return FALSE;
    }
  if (g_ascii_strcasecmp (f[1], "matrix") != 0)
    {
      q = quote_token (f[1]);
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "unknown object “%s” (expected matrix)", q);
      return FALSE;
    }
  return TRUE;
}

/* A keyword of the header and the value it stands for. */
typedef struct {
  const char *name;
  int         value;
} MtxKeyword;

/* tok as one of words (ending in a NULL name), case-insensitive; else an
 * error naming what (the header's field) and what was expected. */
static gboolean
parse_keyword (MtxReader         *r,
               const char        *tok,
               const MtxKeyword  *words,
               const char        *what,
               const char        *expected,
               int               *out,
               GError           **error)
{
  g_autofree char *q = NULL;

  for (; words->name != NULL; words++)
    if (g_ascii_strcasecmp (tok, words->name) == 0)
      {
        *out = words->value;
        return TRUE;
      }
  q = quote_token (tok);
  set_line_error (r, error, KS_MTX_ERROR_PARSE, "unknown %s “%s” (expected %s)", what, q, expected);
  return FALSE;
}

static gboolean
parse_header (MtxReader    *r,
              char         *line,
              MtxFormat    *out_format,
              MtxField     *out_field,
              MtxSymmetry  *out_symmetry,
              GError      **error)
{
  static const MtxKeyword formats[] = {
    { "coordinate", MTX_COORDINATE }, { "array", MTX_ARRAY }, { NULL }
  };
  static const MtxKeyword fields[] = {
    { "real", MTX_REAL }, { "integer", MTX_INTEGER }, { "pattern", MTX_PATTERN }, { NULL }
  };
  /* Complex files are refused before: real hermitian is symmetric. */
  static const MtxKeyword symmetries[] = {
    { "general", MTX_GENERAL }, { "symmetric", MTX_SYMMETRIC }, { "hermitian", MTX_SYMMETRIC },
    { "skew-symmetric", MTX_SKEW_SYMMETRIC }, { NULL }
  };
  char *f[MTX_MAX_FIELDS];
  int format, field, symmetry;

  /* Editors on some systems prepend a byte order mark. */
  if (g_str_has_prefix (line, "\xEF\xBB\xBF"))
    line += 3;

  if (!check_banner (r, f, split_fields (line, f, MTX_MAX_FIELDS), error) ||
      !parse_keyword (r, f[2], formats, "format", "coordinate or array", &format, error))
    return FALSE;
  if (g_ascii_strcasecmp (f[3], "complex") == 0)
    {
      set_line_error (r, error, KS_MTX_ERROR_UNSUPPORTED,
                      "complex matrices are not supported (only real, integer and pattern)");
      return FALSE;
    }
  if (!parse_keyword (r, f[3], fields, "field type", "real, integer, pattern or complex", &field, error) ||
      !parse_keyword (r, f[4], symmetries, "symmetry", "general, symmetric, skew-symmetric or hermitian",
                      &symmetry, error))
    return FALSE;

  /* Both combinations are excluded by the format description: an array has
   * no positions to leave out, and a skew pattern would need signs. */
  if (format == MTX_ARRAY && field == MTX_PATTERN)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "“pattern” is only valid with “coordinate”");
      return FALSE;
    }
  if (field == MTX_PATTERN && symmetry == MTX_SKEW_SYMMETRIC)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "“pattern” cannot be “skew-symmetric”");
      return FALSE;
    }
  *out_format = format;
  *out_field = field;
  *out_symmetry = symmetry;
  return TRUE;
}

/* Parses a row or column count of the size line (must be >= 1). */
static gboolean
parse_dimension (MtxReader   *r,
                 const char  *tok,
                 const char  *what,
                 guint64     *out,
                 GError     **error)
{
  if (!parse_count (tok, out) || *out == 0)
    {
      g_autofree char *q = quote_token (tok);
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "invalid %s count “%s” (must be a positive integer)",
                      what, q);
      return FALSE;
    }
  return TRUE;
}

/* Parses a 1-based coordinate index and range-checks it against limit. */
static gboolean
parse_index (MtxReader   *r,
             const char  *tok,
             const char  *what,
             guint64      limit,
             guint64     *out,
             GError     **error)
{
  g_autofree char *q = NULL;

  if (!parse_count (tok, out))
    {
      q = quote_token (tok);
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "invalid %s index “%s”", what, q);
      return FALSE;
    }
  if (*out < 1 || *out > limit)
    {
      q = quote_token (tok);
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "%s index %s out of range 1..%" G_GUINT64_FORMAT,
                      what, q, limit);
      return FALSE;
    }
  (*out)--;
  return TRUE;
}

gboolean
ks_mtx_read_dense (const char   *path,
                   guint64       max_elements,
                   guint        *out_rows,
                   guint        *out_cols,
                   double      **out_data,
                   GError      **error)
{
  g_autoptr(GInputStream) in = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  name = g_filename_display_name (path);
  in = ks_io_open_regular (path, name, _("a matrix"), KS_MTX_ERROR, KS_MTX_ERROR_IO, error);
  if (in == NULL)
    return FALSE;
  return ks_mtx_read_dense_stream (in, name, max_elements, out_rows, out_cols,
                                   out_data, error);
}

/* Where a read puts the matrix: a dense array (func NULL), or each entry
 * handed to func, the sink of ks_mtx_read_entries. */
typedef struct {
  guint64         max_elements;
  KsMtxEntryFunc  func;
  gpointer        user_data;
} MtxSink;

/* An entry into the dense array, or to the caller's function. */
static gboolean
put (const MtxSink *sink,
     double        *data,
     guint64        cols,
     guint64        i,
     guint64        j,
     double         v,
     guint64        lineno,
     GError       **error)
{
  if (sink->func)
    return sink->func (i, j, v, lineno, sink->user_data, error);
  data[i * cols + j] += v;
  return TRUE;
}

/* What the header and the size line say, and what follows from them. */
typedef struct {
  MtxFormat   format;
  MtxField    field;
  MtxSymmetry symmetry;
  guint64     rows, cols, nnz;
  guint64     elements;      /* rows x cols (G_MAXUINT64 past 2^64 where no dense room is wanted) */
  guint64     expected;      /* the data lines the file must have */
  guint64     size_lineno;
} MtxShape;

/* The header (the very first line) and the size line, whose fields f
 * point into *size_line (the caller's, to free). */
static gboolean
read_shape (MtxReader *r,
            MtxShape  *shape,
            char     **size_line,
            char     **f,
            GError   **error)
{
  g_autofree char *line = NULL;
  guint n, want;

  if (!reader_next_line (r, &line, error))
    return FALSE;
  if (line == NULL)
    {
      g_set_error (error, KS_MTX_ERROR, KS_MTX_ERROR_PARSE, "%s: file is empty", r->name);
      return FALSE;
    }
  if (!parse_header (r, line, &shape->format, &shape->field, &shape->symmetry, error) ||
      !reader_next_data_line (r, size_line, error))
    return FALSE;
  if (*size_line == NULL)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "missing size line after the header");
      return FALSE;
    }
  shape->size_lineno = r->lineno;
  want = shape->format == MTX_COORDINATE ? 3 : 2;
  n = split_fields (*size_line, f, MTX_MAX_FIELDS);
  if (n != want)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "expected %u fields (%s), got %u", want,
                      shape->format == MTX_COORDINATE ? "rows cols entries" : "rows cols", n);
      return FALSE;
    }
  if (!parse_dimension (r, f[0], "row", &shape->rows, error) ||
      !parse_dimension (r, f[1], "column", &shape->cols, error))
    return FALSE;
  if (shape->format == MTX_COORDINATE && !parse_count (f[2], &shape->nnz))
    {
      g_autofree char *q = quote_token (f[2]);
      set_line_error (r, error, KS_MTX_ERROR_PARSE, "invalid entry count “%s”", q);
      return FALSE;
    }
  if (shape->symmetry != MTX_GENERAL && shape->rows != shape->cols)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "a %s matrix must be square, this one is %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT,
                      shape->symmetry == MTX_SYMMETRIC ? "symmetric" : "skew-symmetric", shape->rows, shape->cols);
      return FALSE;
    }
  return TRUE;
}

/* The bytes a file of count values may have, saturating at 2^64 - 1. */
static guint64
bytes_allowed (guint64 count)
{
  return count > (G_MAXUINT64 - MTX_COMMENT_ALLOWANCE) / MTX_BYTES_PER_ELEMENT
         ? G_MAXUINT64
         : count * MTX_BYTES_PER_ELEMENT + MTX_COMMENT_ALLOWANCE;
}

/* The matrix's size against what the reader may hold (f: the size line's
 * fields, quoted in the message since saturated values would misstate
 * them), the bytes the file may have, and the data lines it must have. */
static gboolean
check_size (MtxReader     *r,
            const MtxSink *sink,
            MtxShape      *shape,
            char         **f,
            GError       **error)
{
  const gboolean dense = sink->func == NULL;
  guint64 elements;

  /* The dimensions come back as guint and the data as one allocation, so
   * anything past either is too large whatever max_elements says.
   * Entries handed one by one need no dense room: only the dimensions
   * must fit, and rows x cols may pass 2^64 (counted as the most there is). */
  if (!dense && shape->rows <= G_MAXUINT && shape->cols <= G_MAXUINT &&
      !g_uint64_checked_mul (&elements, shape->rows, shape->cols))
    elements = G_MAXUINT64;
  else if (shape->rows > G_MAXUINT || shape->cols > G_MAXUINT ||
           !g_uint64_checked_mul (&elements, shape->rows, shape->cols) ||
           (dense && elements > G_MAXSIZE / sizeof (double)))
    {
      g_autofree char *qr = quote_token (f[0]);
      g_autofree char *qc = quote_token (f[1]);
      set_line_error (r, error, KS_MTX_ERROR_TOO_LARGE, "a %s x %s matrix is too large to hold densely", qr, qc);
      return FALSE;
    }
  if (dense && sink->max_elements != 0 && elements > sink->max_elements)
    {
      set_line_error (r, error, KS_MTX_ERROR_TOO_LARGE,
                      "a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix has %" G_GUINT64_FORMAT
                      " elements, more than the limit of %" G_GUINT64_FORMAT,
                      shape->rows, shape->cols, elements, sink->max_elements);
      return FALSE;
    }
  shape->elements = elements;
  r->max_bytes = bytes_allowed (elements);
  /* Handed one by one, a coordinate file is bounded by its entries alone:
   * its dense size (a batch of systems) says nothing about its length. */
  if (!dense && shape->format == MTX_COORDINATE)
    r->max_bytes = 0;
  if (shape->format == MTX_COORDINATE)
    {
      /* Entries may repeat (they are summed), so nnz may exceed elements. */
      r->max_bytes = MAX (r->max_bytes, bytes_allowed (shape->nnz));
    }
  if (shape->format == MTX_COORDINATE)
    shape->expected = shape->nnz;
  else if (shape->symmetry == MTX_GENERAL)
    shape->expected = elements;
  else if (shape->symmetry == MTX_SYMMETRIC)
    shape->expected = shape->rows * (shape->rows + 1) / 2;   /* lower triangle with diagonal */
  else
    shape->expected = shape->rows * (shape->rows - 1) / 2;   /* strictly lower triangle */
  return TRUE;
}

/* One value of an array file at (ai, aj), which then walks on: array
 * files are column-major and, when symmetric, hold the lower triangle
 * column by column (without the zero diagonal when skew). */
static gboolean
put_array (const MtxShape *shape,
           const MtxSink  *sink,
           double         *data,
           guint64        *ai,
           guint64        *aj,
           double          v,
           guint64         lineno,
           GError        **error)
{
  const guint64 i = *ai, j = *aj, cols = shape->cols;
  const MtxSymmetry symmetry = shape->symmetry;

  if (++*ai == shape->rows)
    {
      ++*aj;
      *ai = symmetry == MTX_GENERAL ? 0 : symmetry == MTX_SYMMETRIC ? *aj : *aj + 1;
    }
  /* Each position occurs once, so assign: that also keeps -0.0. */
  if (sink->func != NULL)
    return sink->func (i, j, v, lineno, sink->user_data, error) &&
           (i == j || symmetry != MTX_SYMMETRIC || sink->func (j, i, v, lineno, sink->user_data, error)) &&
           (symmetry != MTX_SKEW_SYMMETRIC || sink->func (j, i, -v, lineno, sink->user_data, error));
  data[i * cols + j] = v;
  if (i != j && symmetry == MTX_SYMMETRIC)
    data[j * cols + i] = v;
  else if (symmetry == MTX_SKEW_SYMMETRIC)
    data[j * cols + i] = -v;
  return TRUE;
}

/* One entry line of a coordinate file (fields f), summed in. */
static gboolean
put_coordinate (MtxReader      *r,
                const MtxShape *shape,
                const MtxSink  *sink,
                double         *data,
                char          **f,
                GError        **error)
{
  guint64 i, j;
  double v = 1.0;

  if (!parse_index (r, f[0], "row", shape->rows, &i, error) ||
      !parse_index (r, f[1], "column", shape->cols, &j, error))
    return FALSE;
  if (shape->field != MTX_PATTERN && !parse_value (r, f[2], shape->field, &v, error))
    return FALSE;
  if (shape->symmetry == MTX_SKEW_SYMMETRIC && i == j)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "diagonal entry (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") in a skew-symmetric matrix",
                      i + 1, j + 1);
      return FALSE;
    }
  /* Summed, see the top of the file. */
  return put (sink, data, shape->cols, i, j, v, r->lineno, error) &&
         (i == j || shape->symmetry != MTX_SYMMETRIC || put (sink, data, shape->cols, j, i, v, r->lineno, error)) &&
         (shape->symmetry != MTX_SKEW_SYMMETRIC || put (sink, data, shape->cols, j, i, -v, r->lineno, error));
}

/* The data lines, exactly as many as the size line says. */
static gboolean
read_entries (MtxReader      *r,
              const MtxShape *shape,
              const MtxSink  *sink,
              double         *data,
              GError        **error)
{
  const guint want = shape->format == MTX_ARRAY ? 1 : shape->field == MTX_PATTERN ? 2 : 3;
  guint64 ai = shape->symmetry == MTX_SKEW_SYMMETRIC ? 1 : 0, aj = 0, count;
  char *f[MTX_MAX_FIELDS];

  for (count = 0;; count++)
    {
      g_autofree char *line = NULL;
      double v = 1.0;
      guint n;

      if (!reader_next_data_line (r, &line, error))
        return FALSE;
      if (line == NULL)
        break;
      if (count == shape->expected)
        {
          set_line_error (r, error, KS_MTX_ERROR_PARSE,
                          "more entries than the %" G_GUINT64_FORMAT " declared on line %" G_GUINT64_FORMAT,
                          shape->expected, shape->size_lineno);
          return FALSE;
        }
      if ((n = split_fields (line, f, MTX_MAX_FIELDS)) != want)
        {
          set_line_error (r, error, KS_MTX_ERROR_PARSE, "expected %u field%s, got %u", want, want == 1 ? "" : "s", n);
          return FALSE;
        }
      if (shape->format == MTX_ARRAY ? !parse_value (r, f[0], shape->field, &v, error) ||
                                       !put_array (shape, sink, data, &ai, &aj, v, r->lineno, error)
                                     : !put_coordinate (r, shape, sink, data, f, error))
        return FALSE;
    }
  if (count < shape->expected)
    {
      set_line_error (r, error, KS_MTX_ERROR_PARSE,
                      "file ends after %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT
                      " entries declared on line %" G_GUINT64_FORMAT, count, shape->expected, shape->size_lineno);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_stream (GInputStream  *stream,
             const char    *name,
             const MtxSink *sink,
             guint         *out_rows,
             guint         *out_cols,
             double       **out_data,
             GError       **error)
{
  const gboolean dense = sink->func == NULL;
  g_autoptr(GBufferedInputStream) in = NULL;
  g_autofree char *size_line = NULL;
  g_autofree double *data = NULL;
  MtxReader r = { 0 };
  MtxShape shape = { 0 };
  char *f[MTX_MAX_FIELDS];

  /* Streamed line by line through a buffer that holds the longest line
   * taken: files can be far larger than the dense matrix they describe is
   * allowed to be. */
  in = G_BUFFERED_INPUT_STREAM (g_buffered_input_stream_new_sized (stream, MTX_LINE_MAX));
  r.in = in;
  r.name = name;
  r.lineno = 0;
  /* Until the size line says how large the matrix is, only comments. */
  r.max_bytes = MTX_COMMENT_ALLOWANCE;
  if (!read_shape (&r, &shape, &size_line, f, error) || !check_size (&r, sink, &shape, f, error))
    return FALSE;
  /* g_try_: with max_elements == 0 the size is the file's word, and a bad
   * file must not abort the program. */
  data = dense ? g_try_new0 (double, (gsize) shape.elements) : NULL;
  if (dense && data == NULL)
    {
      set_line_error (&r, error, KS_MTX_ERROR_TOO_LARGE,
                      "cannot allocate a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix (%" G_GUINT64_FORMAT
                      " elements)", shape.rows, shape.cols, shape.elements);
      return FALSE;
    }
  if (!read_entries (&r, &shape, sink, data, error))
    return FALSE;
  *out_rows = (guint) shape.rows;
  *out_cols = (guint) shape.cols;
  if (out_data)
    *out_data = g_steal_pointer (&data);
  return TRUE;
}

gboolean
ks_mtx_read_dense_stream (GInputStream *stream,
                          const char   *name,
                          guint64       max_elements,
                          guint        *out_rows,
                          guint        *out_cols,
                          double      **out_data,
                          GError      **error)
{
  const MtxSink sink = { max_elements, NULL, NULL };

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out_rows != NULL, FALSE);
  g_return_val_if_fail (out_cols != NULL, FALSE);
  g_return_val_if_fail (out_data != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return read_stream (stream, name, &sink, out_rows, out_cols, out_data, error);
}

gboolean
ks_mtx_read_entries (const char     *path,
                     KsMtxEntryFunc  func,
                     gpointer        user_data,
                     guint          *out_rows,
                     guint          *out_cols,
                     GError        **error)
{
  g_autoptr(GInputStream) in = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_return_val_if_fail (func != NULL && out_rows != NULL && out_cols != NULL, FALSE);

  name = g_filename_display_name (path);
  if (!(in = ks_io_open_regular (path, name, _("a matrix"), KS_MTX_ERROR, KS_MTX_ERROR_IO, error)))
    return FALSE;
  return read_stream (in, name, &(MtxSink) { 0, func, user_data }, out_rows, out_cols, NULL, error);
}
