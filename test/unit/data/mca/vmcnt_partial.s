	buffer_load_dwordx4 v[20:23], v6, s[8:11], 0 offen
	buffer_load_dwordx4 v[24:27], v6, s[8:11], 0 offen offset:64
	buffer_load_dwordx4 v[28:31], v6, s[8:11], 0 offen offset:128
	s_waitcnt vmcnt(2)
	v_add_u32_e32 v1, v20, v2
	s_waitcnt vmcnt(1)
	v_add_u32_e32 v1, v24, v1
	s_waitcnt vmcnt(0)
	v_add_u32_e32 v1, v28, v1
