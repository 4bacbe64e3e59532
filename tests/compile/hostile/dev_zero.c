#include </dev/zero>
