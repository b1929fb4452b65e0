#pragma once
#include <stddef.h>
#include <webp/decode.h>
#include <webp/demux.h>
