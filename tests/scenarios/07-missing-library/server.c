/* The voice server: needs libvoicefx.so.1 (and libm) at start-up. */
#include <math.h>
#include <stdio.h>

int voicefx_init(int sample_rate);

int main(void)
{
	if (voicefx_init(22050) != 0)
		return 1;
	printf("voice server ready, gain %.2f\n", pow(10.0, -3.0 / 20.0));
	return 0;
}
