/* The course games' shared header, included without the game header. */
#include "course.h"

PLAYER_NAME(Course);

void play(void)
{
}
