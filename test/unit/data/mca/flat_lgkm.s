	global_load_dwordx4 v[20:23], v[6:7], off
	ds_read_b128 v[16:19], v0
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v16, v2
