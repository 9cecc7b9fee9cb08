/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run-json-points.c: the points array of a results file read without a
 * tree (see ks-run-json-private.h for why).
 *
 * The scanner takes strict JSON only, and of it only what the writer
 * writes: flat objects of numbers, strings (\u escapes aside), true, false
 * and null.  Anything else (a \u escape, a nested value, a number it
 * cannot read exactly as json-glib does, a duplicate member) is not an
 * error here: it returns FALSE and the whole file is read by json-glib, so
 * an odd but valid file reads as before and a damaged one gets
 * json-glib's message. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-run-json-private.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* --- the scanner ------------------------------------------------------------------ */

typedef struct {
  const char   *p, *end;
  GStringChunk *strings;   /* the point's strings, NUL-terminated */
  GString      *scratch;   /* a string being unescaped */
} Scan;

static inline void
skip_space (Scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
    s->p++;
}

static inline gboolean
expect (Scan *s,
        char  c)
{
  skip_space (s);
  if (s->p >= s->end || *s->p != c)
    return FALSE;
  s->p++;
  return TRUE;
}

/* A string without escapes or control characters, valid UTF-8: its bytes
 * between the quotes. */
static gboolean
plain_string (Scan        *s,
              const char **start,
              gsize       *length)
{
  gboolean ascii = TRUE;
  const char *q;

  if (s->p >= s->end || *s->p != '"')
    return FALSE;
  for (q = s->p + 1; q < s->end && *q != '"'; q++)
    {
      if ((guchar) *q < 0x20 || *q == '\\')
        return FALSE;
      ascii &= (guchar) *q < 0x80;
    }
  if (q >= s->end)
    return FALSE;
  *start = s->p + 1;
  *length = q - *start;
  if (!ascii && !g_utf8_validate_len (*start, *length, NULL))
    return FALSE;
  s->p = q + 1;
  return TRUE;
}

/* A string with the escapes a message may hold (\" \\ \/ \b \f \n \r \t,
 * an OpenCL error quoting a name): unescaped into the point's strings.
 * \u escapes are json-glib's to read. */
static gboolean
escaped_string (Scan        *s,
                const char **out)
{
  static const char plain[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
  GString *t = s->scratch;
  gboolean ascii = TRUE;
  const char *q;

  g_string_truncate (t, 0);
  for (q = s->p + 1; q < s->end && *q != '"'; q++)
    {
      const char *e;

      if ((guchar) *q < 0x20)
        return FALSE;
      if (*q != '\\')
        {
          ascii &= (guchar) *q < 0x80;
          g_string_append_c (t, *q);
          continue;
        }
      if (++q >= s->end || *q == '\0' || !(e = strchr (plain, *q)))
        return FALSE;
      g_string_append_c (t, meant[e - plain]);
    }
  if (q >= s->end || (!ascii && !g_utf8_validate_len (t->str, t->len, NULL)))
    return FALSE;
  *out = g_string_chunk_insert_len (s->strings, t->str, t->len);
  s->p = q + 1;
  return TRUE;
}

static gboolean
literal (Scan       *s,
         const char *word)
{
  gsize len = strlen (word);

  if ((gsize) (s->end - s->p) < len || memcmp (s->p, word, len) != 0)
    return FALSE;
  s->p += len;
  return TRUE;
}

#if LDBL_MANT_DIG >= 64
/* Seventeen digits (what the writer gives most measured numbers) do not
 * fit Clinger's fast path.  In x87's 64-bit mantissa the digits and 10^k
 * up to 10^27 are exact, and the product or quotient is rounded once, by
 * at most half a unit of its last place; rounding that to a double is then
 * what strtod gives unless it lies within one unit of a halfway point
 * between two doubles (its low 11 bits 0x3ff..0x401): those go to strtod. */
static gboolean
extended_decimal (guint64  mantissa,
                  int      exponent,
                  double  *out)
{
  static const long double pow10[] = {
    1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
    1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L };
  long double r, m;
  guint64 low;
  int e;

  if (exponent < -27 || exponent > 27)
    return FALSE;
  r = exponent < 0 ? (long double) mantissa / pow10[-exponent] : (long double) mantissa * pow10[exponent];
  m = frexpl (r, &e);
  low = (guint64) ldexpl (m, 64) & 0x7ff;
  if (low >= 0x3ff && low <= 0x401)
    return FALSE;
  *out = (double) r;
  return TRUE;
}
#else
static gboolean
extended_decimal (guint64  mantissa,
                  int      exponent,
                  double  *out)
{
  return FALSE;
}
#endif

/* mantissa x 10^exponent as the nearest double, exactly: Clinger's fast
 * path (a whole number below 2^53 times or over a power of ten up to
 * 10^22, both exact doubles, is rounded once by the one operation), or
 * the above.  FALSE where neither applies. */
static gboolean
decimal_value (guint64  mantissa,
               int      exponent,
               double  *out)
{
  static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

  if (mantissa == 0)
    *out = 0.0;
  else if (mantissa <= G_GUINT64_CONSTANT (1) << 53 && exponent >= -22 && exponent <= 22)
    *out = exponent < 0 ? (double) mantissa / pow10[-exponent] : (double) mantissa * pow10[exponent];
  else
    return extended_decimal (mantissa, exponent, out);
  return TRUE;
}

/* A number's digits as they come: up to 19 significant digits kept in
 * mantissa, the place of the last in scale; more, and it is inexact. */
typedef struct {
  guint64  mantissa;
  int      digits, scale;
  gboolean inexact;
} Decimal;

static void
decimal_digits (Scan     *s,
                Decimal  *d,
                gboolean  fraction)
{
  for (; s->p < s->end && g_ascii_isdigit (*s->p); s->p++)
    {
      if (d->mantissa == 0 && *s->p == '0')
        d->scale -= fraction;   /* leading zeros count only as places */
      else if (d->digits < 19)
        {
          d->mantissa = d->mantissa * 10 + (guint64) (*s->p - '0');
          d->digits++;
          d->scale -= fraction;
        }
      else
        {
          d->inexact = TRUE;
          d->scale += !fraction;
        }
    }
}

/* A number in JSON's grammar: whole numbers of up to 18 digits as
 * integers, the rest exactly as g_ascii_strtod reads them. */
static gboolean
number (Scan        *s,
        KsJsonValue *v)
{
  const char *start = s->p, *mark;
  gboolean negative = s->p < s->end && *s->p == '-', real = FALSE;
  Decimal d = { 0, 0, 0, FALSE };
  int exponent = 0, exp_sign = 1;
  char buf[64];

  s->p += negative;
  mark = s->p;
  if (s->p < s->end && *s->p == '0')
    s->p++;
  else
    decimal_digits (s, &d, FALSE);
  if (s->p == mark)
    return FALSE;
  if (s->p < s->end && *s->p == '.')
    {
      mark = ++s->p;
      decimal_digits (s, &d, TRUE);
      if (s->p == mark)
        return FALSE;
      real = TRUE;
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      s->p++;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        exp_sign = *s->p++ == '-' ? -1 : 1;
      for (mark = s->p; s->p < s->end && g_ascii_isdigit (*s->p); s->p++)
        if ((exponent = exponent * 10 + (*s->p - '0')) > 400)
          d.inexact = TRUE, exponent = 400;
      if (s->p == mark)
        return FALSE;
      real = TRUE;
    }
  if (!real)
    {
      if (d.inexact || d.digits > 18)
        return FALSE;   /* near or past gint64: json-glib's own rules */
      v->kind = KS_JSON_INT;
      v->i = negative ? -(gint64) d.mantissa : (gint64) d.mantissa;
      return TRUE;
    }
  v->kind = KS_JSON_DOUBLE;
  if (!d.inexact && decimal_value (d.mantissa, exp_sign * exponent + d.scale, &v->d))
    {
      if (negative)
        v->d = -v->d;
      return TRUE;
    }
  if ((gsize) (s->p - start) >= sizeof buf)
    return FALSE;
  memcpy (buf, start, s->p - start);
  buf[s->p - start] = '\0';
  errno = 0;
  v->d = g_ascii_strtod (buf, NULL);
  /* A subnormal number (ERANGE) reads as itself; overflow to infinity
   * and underflow to zero follow json-glib's own rules. */
  return isfinite (v->d) && !(errno != 0 && v->d == 0);
}

static gboolean
scalar (Scan        *s,
        KsJsonValue *v)
{
  skip_space (s);
  if (s->p >= s->end)
    return FALSE;
  switch (*s->p)
    {
    case '"':
      {
        const char *start;
        gsize len;

        v->kind = KS_JSON_STRING;
        if (!plain_string (s, &start, &len))
          return s->scratch != NULL && escaped_string (s, &v->s);
        v->s = g_string_chunk_insert_len (s->strings, start, len);
        return TRUE;
      }
    case 't':
      v->kind = KS_JSON_BOOL, v->b = TRUE;
      return literal (s, "true");
    case 'f':
      v->kind = KS_JSON_BOOL, v->b = FALSE;
      return literal (s, "false");
    case 'n':
      v->kind = KS_JSON_NULL;
      return literal (s, "null");
    default:
      return number (s, v);
    }
}

/* The slot a member name reads, or -1 for a member no slot reads.  Points
 * list their members in the same order: order[k] guesses the k-th. */
static int
find_slot (KsRunJsonSlots *slots,
           guint          *order,
           guint           k,
           const char     *name,
           gsize           len)
{
  char key[256];
  guint found;

  if (order != NULL && k < 64 && order[k] < slots->n && slots->lengths[order[k]] == len &&
      memcmp (slots->names[order[k]], name, len) == 0)
    return (int) order[k];
  if (len >= sizeof key)
    return -1;
  memcpy (key, name, len);
  key[len] = '\0';
  found = GPOINTER_TO_UINT (g_hash_table_lookup (slots->index, key));
  if (order != NULL && k < 64)
    order[k] = found ? found - 1 : G_MAXUINT;
  return (int) found - 1;
}

static gboolean
scan_object (Scan           *s,
             KsRunJsonSlots *slots,
             guint          *order,
             KsJsonValue    *values)
{
  if (!expect (s, '{'))
    return FALSE;
  skip_space (s);
  if (s->p < s->end && *s->p == '}')
    return s->p++, TRUE;
  for (guint k = 0;; k++)
    {
      KsJsonValue ignored, *v;
      const char *name;
      gsize len;
      int slot;

      skip_space (s);
      if (!plain_string (s, &name, &len) || !expect (s, ':'))
        return FALSE;
      skip_space (s);
      /* A point's members are plain values: anything nested goes to
       * json-glib, which says what it is. */
      slot = find_slot (slots, order, k, name, len);
      v = slot >= 0 ? &values[slot] : &ignored;
      if (slot >= 0 && v->kind != KS_JSON_ABSENT)
        return FALSE;   /* a member twice */
      if (!scalar (s, v))
        return FALSE;
      skip_space (s);
      if (s->p < s->end && *s->p == '}')
        return s->p++, TRUE;
      if (!expect (s, ','))
        return FALSE;
    }
}

typedef struct {
  KsRun          *run;
  gboolean       *written;
} RunPoints;

/* A format-2 point from its values into the run. */
static gboolean
add_run_point (KsRunJsonSlots    *slots,
               const KsJsonValue *values,
               gpointer           data)
{
  RunPoints *rp = data;
  g_autoptr(KsRunPoint) p = ks_run_point_new (rp->run);

  if (!ks_run_json_point_from_values (rp->run, slots, values, p, NULL))
    return FALSE;
  for (guint c = 0; c < rp->run->desc->n_columns; c++)
    rp->written[c] |= values[ks_run_json_column_slot (slots, c)].kind != KS_JSON_ABSENT;
  ks_run_add_point (rp->run, g_steal_pointer (&p));
  return TRUE;
}

gboolean
ks_json_scan_objects (const char     *text,
                      gsize           length,
                      KsRunJsonSlots *slots,
                      KsJsonValuesFunc func,
                      gpointer        data)
{
  g_autofree KsJsonValue *values = g_new0 (KsJsonValue, slots->n);
  Scan s = { text, text + length, g_string_chunk_new (256), g_string_new (NULL) };
  guint order[64];
  gboolean ok = FALSE;

  g_return_val_if_fail (slots != NULL && text != NULL && func != NULL, FALSE);

  memset (order, 0xff, sizeof order);
  if (!expect (&s, '['))
    goto out;
  skip_space (&s);
  if (s.p < s.end && *s.p == ']')
    s.p++;
  else
    for (;;)
      {
        memset (values, 0, slots->n * sizeof *values);   /* KS_JSON_ABSENT is 0 */
        g_string_chunk_clear (s.strings);
        if (!scan_object (&s, slots, order, values) || !func (slots, values, data))
          goto out;
        skip_space (&s);
        if (s.p < s.end && *s.p == ']')
          {
            s.p++;
            break;
          }
        if (!expect (&s, ','))
          goto out;
      }
  skip_space (&s);
  ok = s.p == s.end;
out:
  g_string_chunk_free (s.strings);
  g_string_free (s.scratch, TRUE);
  return ok;
}

gboolean
ks_run_json_scan_points (KsRun          *run,
                         KsRunJsonSlots *slots,
                         const char     *text,
                         gsize           length,
                         gboolean       *written)
{
  RunPoints rp = { run, written };

  g_return_val_if_fail (run != NULL, FALSE);
  return ks_json_scan_objects (text, length, slots, add_run_point, &rp);
}

/* --- finding the points ------------------------------------------------------- */

/* The bytes of a number or a literal. */
static const gboolean token_char[256] = {
  ['+'] = 1, ['-'] = 1, ['.'] = 1,
  ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
  ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
  ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
  ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['E'] = 1,
};

/* Past a string's closing quote (s->p on its opening one): memchr to each
 * quote, escaped where an odd run of backslashes stands before it. */
static gboolean
skip_string (Scan *s)
{
  const char *q = s->p + 1;

  for (;;)
    {
      const char *b;

      if (!(q = memchr (q, '"', s->end - q)))
        return FALSE;
      for (b = q; b > s->p + 1 && b[-1] == '\\'; b--)
        ;
      q++;
      if ((q - 1 - b) % 2 == 0)
        break;
    }
  s->p = q;
  return TRUE;
}

/* Past one value of any kind, nested ones included (checked by json-glib
 * later: this only has to find where the value ends). */
static gboolean
skip_value (Scan *s)
{
  guint depth = 0;

  do
    {
      skip_space (s);
      if (s->p >= s->end)
        return FALSE;
      switch (*s->p)
        {
        case '"':
          if (!skip_string (s))
            return FALSE;
          break;
        case '{':
        case '[':
          depth++, s->p++;
          break;
        case '}':
        case ']':
          if (depth == 0)
            return FALSE;
          depth--, s->p++;
          break;
        case ',':
        case ':':
          if (depth == 0)
            return FALSE;
          s->p++;
          break;
        default:
          {
            /* A number or a literal: letters, digits, '.', '+', '-'. */
            const char *start = s->p;

            while (s->p < s->end && token_char[(guchar) *s->p])
              s->p++;
            if (s->p == start)
              return FALSE;
          }
          break;
        }
    }
  while (depth > 0);
  return TRUE;
}

/* The writer puts the points last: where data ends in "]" and "}" (and
 * spaces), that "]" ends them, found without skipping a few hundred
 * megabytes.  A wrong guess (another member after them) makes the text
 * between no array, which the scanner refuses. */
static const char *
last_array (const Scan *s)
{
  const char *q = s->end;

  while (q > s->p && g_ascii_isspace (q[-1]))
    q--;
  if (q == s->p || q[-1] != '}')
    return NULL;
  for (q--; q > s->p && g_ascii_isspace (q[-1]); q--)
    ;
  return q > s->p && q[-1] == ']' && *s->p == '[' ? q : NULL;
}

/* The top-level members of data up to name's: the one and only of that
 * name, its span guessed where it is last. */
static gboolean
find_member (const char *data,
             gsize       length,
             const char *name,
             gsize      *start,
             gsize      *end)
{
  Scan s = { data, data + length, NULL, NULL };
  gboolean found = FALSE;

  if (!expect (&s, '{'))
    return FALSE;
  for (;;)
    {
      const char *key, *value, *last;
      gboolean match;
      gsize len;

      skip_space (&s);
      if (!plain_string (&s, &key, &len) || !expect (&s, ':'))
        return FALSE;
      skip_space (&s);
      value = s.p;
      match = len == strlen (name) && memcmp (key, name, len) == 0;
      if (match && !found && (last = last_array (&s)))
        {
          *start = value - data;
          *end = last - data;
          return TRUE;
        }
      if (!skip_value (&s))
        return FALSE;
      if (match)
        {
          if (found)
            return FALSE;
          found = TRUE;
          *start = value - data;
          *end = s.p - data;
        }
      skip_space (&s);
      if (s.p < s.end && *s.p == '}')
        return found;
      if (!expect (&s, ','))
        return FALSE;
    }
}

gboolean
ks_run_json_find_member (const char *data,
                         gsize       length,
                         const char *name,
                         gsize      *start,
                         gsize      *end)
{
  g_return_val_if_fail (data != NULL && name != NULL, FALSE);
  return find_member (data, length, name, start, end);
}
