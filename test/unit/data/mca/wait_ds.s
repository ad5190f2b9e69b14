	ds_read_b128 v[16:19], v0
	ds_read_b128 v[20:23], v0 offset:1024
	s_waitcnt lgkmcnt(1)
	v_add_u32_e32 v1, v16, v2
