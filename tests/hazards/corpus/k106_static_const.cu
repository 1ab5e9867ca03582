struct Cfg { static constexpr unsigned warp_size = 32; };
