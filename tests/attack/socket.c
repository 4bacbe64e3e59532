/* socket(2): a player has no business with the network. */
#include <sys/socket.h>

#include "attack.h"

int main(void)
{
	survived("socket", socket(AF_INET, SOCK_STREAM, 0));
}
