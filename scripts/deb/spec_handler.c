// SPDX-License-Identifier: GPL-2.0
/*
 * The handler scripts/deb/spec_check.c specializes: compiled to IR by the
 * packaged spec-cc, so the annotations come from the installed headers.
 */
long scale(long x, int k)
{
	k = spec_enum("K", k, 2, 3, 5);
	return x * k;
}
