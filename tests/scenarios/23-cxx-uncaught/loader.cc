// A native model loader (as in a C++ extension) that throws from its
// worker thread; nothing catches it, so libstdc++ calls std::terminate,
// prints the exception and aborts.
#include <stdexcept>
#include <string>
#include <thread>

struct Loader {
	void load(const std::string &path)
	{
		throw std::runtime_error("cannot parse model header in " + path);
	}
};

static void worker()
{
	Loader l;
	l.load("weights.bin");
}

int main()
{
	std::thread t(worker);
	t.join();
}
