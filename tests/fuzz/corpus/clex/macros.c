#define CAT(a, b) a ## b
#define STR(x) #x
%:include <stdio.h>
int CAT(x, 1) = sizeof STR(y) + 0x1p-3 + 1'0;
#if 0
isn't \
 spliced */
#endif
const char *s = u8"\"" L"x" R"(raw)";
