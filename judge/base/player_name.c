#include "judge/base/player_name.h"

bool player_name_valid(const char *name, size_t len)
{
	if (len < 1 || len > PLAYER_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z')))
			return false;
	}
	return true;
}
