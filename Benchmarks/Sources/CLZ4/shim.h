// The system's liblz4 (Debian: liblz4-dev), for the index candidates' figures.
#include <lz4.h>
