/* A vendor's audio-effects library the server links against. */
int voicefx_init(int sample_rate)
{
	return sample_rate > 0 ? 0 : -1;
}
