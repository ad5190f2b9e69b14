	buffer_load_dwordx4 v[20:23], v6, s[8:11], 0 offen
	ds_read_b128 v[16:19], v0
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v1, v16, v2
	s_waitcnt vmcnt(0)
	v_add_u32_e32 v2, v20, v2
