# 1 "AIName.c"
int x __attribute__((section("s"))) [[gnu::aligned(4)]];
#pragma GCC warning "a\n"
# 1 "/usr/include/stdio.h" 1 3 4
int y <: 2 :>;
# 3 "AIName.c" 2
/* c */ @ `
