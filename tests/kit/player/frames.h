/* frames.h - unit bodies with large frames (tests/kit/player/frames.c). */
#ifndef TEST_FRAMES_H
#define TEST_FRAMES_H

void frames_big_local(void *arg);
void frames_big_vla(void *arg);
void frames_fitting_local(void *arg);

#endif
