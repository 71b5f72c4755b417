// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's clocksource; see clocksource.h. */
#include <string.h>

#include "clocksource.h"
#include "sysfs.h"

ssize_t clocksource_current(char *buf, size_t len)
{
	return fs_read(CLOCKSOURCE_DIR "/current_clocksource", buf, len);
}

ssize_t clocksource_available(char *buf, size_t len)
{
	ssize_t n = fs_read(CLOCKSOURCE_DIR "/available_clocksource", buf, len);

	while (n > 0 && buf[n - 1] == ' ')	/* the kernel ends the list with a space */
		buf[--n] = '\0';
	return n;
}

bool clocksource_slow(const char *name)
{
	/* A list of the slow ones, not of the fast: a counter this list does
	 * not know (another architecture's) is no reason to warn. */
	static const char *const slow[] = { "hpet", "acpi_pm", "pit", "jiffies", "refined-jiffies" };

	for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
		if (!strcmp(name, slow[i]))
			return true;
	return false;
}
