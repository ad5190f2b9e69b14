; main loop of pipeline-opt --pipeline='4wave{dtype=fp8 BM=128 BN=128 BK=128}' --emit=asm
.LBB0_5:
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	ds_read_b128 v[118:121], v70 offset:40960
	ds_read_b128 v[122:125], v70 offset:41024
	ds_read_b128 v[126:129], v70 offset:43008
	ds_read_b128 v[130:133], v70 offset:43072
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v79, v78, v64
	s_mov_b32 m0, s11
	v_add_u32_e32 v112, 0x100, v79
	buffer_load_dwordx4 v112, s[12:15], 0 offen lds
	v_add_u32_e32 v112, v77, v64
	v_add_u32_e32 v113, 0x100, v112
	s_mov_b32 m0, s22
	v_mfma_f32_16x16x128_f8f6f4 v[32:35], v[104:111], v[80:87], v[32:35]
	buffer_load_dwordx4 v113, s[12:15], 0 offen lds
	v_mfma_f32_16x16x128_f8f6f4 v[28:31], v[104:111], v[88:95], v[28:31]
	v_mfma_f32_16x16x128_f8f6f4 v[44:47], v[96:103], v[80:87], v[44:47]
	v_mfma_f32_16x16x128_f8f6f4 v[56:59], v[96:103], v[88:95], v[56:59]
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[134:137], v69 offset:8192
	ds_read_b128 v[138:141], v69 offset:8256
	ds_read_b128 v[142:145], v69 offset:10240
	ds_read_b128 v[146:149], v69 offset:10304
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x128_f8f6f4 v[4:7], v[104:111], v[118:125], v[4:7]
	s_mov_b32 m0, s23
	v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[104:111], v[126:133], v[0:3]
	v_add_u32_e32 v104, v76, v64
	v_add_u32_e32 v105, 0x100, v104
	buffer_load_dwordx4 v105, s[16:19], 0 offen lds
	v_add_u32_e32 v105, v75, v64
	v_add_u32_e32 v106, 0x100, v105
	s_mov_b32 m0, s24
	s_nop 0
	buffer_load_dwordx4 v106, s[16:19], 0 offen lds
	v_mfma_f32_16x16x128_f8f6f4 v[20:23], v[96:103], v[118:125], v[20:23]
	v_mfma_f32_16x16x128_f8f6f4 v[36:39], v[96:103], v[126:133], v[36:39]
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	ds_read_b128 v[150:153], v69 offset:16384
	ds_read_b128 v[154:157], v69 offset:16448
	ds_read_b128 v[158:161], v69 offset:18432
	ds_read_b128 v[162:165], v69 offset:18496
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v113, v74, v64
	s_mov_b32 m0, s25
	v_add_u32_e32 v96, 0x100, v113
	v_add_u32_e32 v114, v73, v64
	buffer_load_dwordx4 v96, s[16:19], 0 offen lds
	v_add_u32_e32 v96, 0x100, v114
	s_mov_b32 m0, s26
	v_mfma_f32_16x16x128_f8f6f4 v[16:19], v[134:141], v[80:87], v[16:19]
	buffer_load_dwordx4 v96, s[16:19], 0 offen lds
	v_mfma_f32_16x16x128_f8f6f4 v[24:27], v[134:141], v[88:95], v[24:27]
	v_mfma_f32_16x16x128_f8f6f4 v[40:43], v[142:149], v[80:87], v[40:43]
	v_mfma_f32_16x16x128_f8f6f4 v[48:51], v[142:149], v[88:95], v[48:51]
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[82:85], v70 offset:49152
	ds_read_b128 v[86:89], v70 offset:49216
	ds_read_b128 v[166:169], v70 offset:51200
	ds_read_b128 v[170:173], v70 offset:51264
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v115, v72, v64
	s_mov_b32 m0, s27
	v_add_u32_e32 v80, 0x100, v115
	v_add_u32_e32 v116, v71, v64
	buffer_load_dwordx4 v80, s[12:15], 0 offen lds
	v_add_u32_e32 v80, 0x100, v116
	s_mov_b32 m0, s28
	s_nop 0
	buffer_load_dwordx4 v80, s[12:15], 0 offen lds
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8)
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x128_f8f6f4 v[8:11], v[134:141], v[118:125], v[8:11]
	v_mfma_f32_16x16x128_f8f6f4 v[12:15], v[134:141], v[126:133], v[12:15]
	v_mfma_f32_16x16x128_f8f6f4 v[52:55], v[142:149], v[118:125], v[52:55]
	v_mfma_f32_16x16x128_f8f6f4 v[60:63], v[142:149], v[126:133], v[60:63]
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	ds_read_b128 v[118:121], v70 offset:57344
	ds_read_b128 v[122:125], v70 offset:57408
	ds_read_b128 v[126:129], v70 offset:59392
	ds_read_b128 v[130:133], v70 offset:59456
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s29
	v_add_u32_e32 v79, 0x180, v79
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	v_add_u32_e32 v79, 0x180, v112
	s_mov_b32 m0, s30
	v_mfma_f32_16x16x128_f8f6f4 v[32:35], v[150:157], v[82:89], v[32:35]
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	v_mfma_f32_16x16x128_f8f6f4 v[28:31], v[150:157], v[166:173], v[28:31]
	v_mfma_f32_16x16x128_f8f6f4 v[44:47], v[158:165], v[82:89], v[44:47]
	v_mfma_f32_16x16x128_f8f6f4 v[56:59], v[158:165], v[166:173], v[56:59]
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[134:137], v69 offset:24576
	ds_read_b128 v[138:141], v69 offset:24640
	ds_read_b128 v[142:145], v69 offset:26624
	ds_read_b128 v[146:149], v69 offset:26688
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s31
	v_add_u32_e32 v79, 0x180, v104
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_add_u32_e32 v79, 0x180, v105
	s_mov_b32 m0, s33
	v_mfma_f32_16x16x128_f8f6f4 v[4:7], v[150:157], v[118:125], v[4:7]
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[150:157], v[126:133], v[0:3]
	v_mfma_f32_16x16x128_f8f6f4 v[20:23], v[158:165], v[118:125], v[20:23]
	v_mfma_f32_16x16x128_f8f6f4 v[36:39], v[158:165], v[126:133], v[36:39]
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	ds_read_b128 v[104:107], v69
	ds_read_b128 v[108:111], v69 offset:64
	ds_read_b128 v[96:99], v69 offset:2048
	ds_read_b128 v[100:103], v69 offset:2112
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s34
	v_add_u32_e32 v79, 0x180, v113
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_add_u32_e32 v79, 0x180, v114
	s_mov_b32 m0, s35
	v_mfma_f32_16x16x128_f8f6f4 v[16:19], v[134:141], v[82:89], v[16:19]
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_mfma_f32_16x16x128_f8f6f4 v[24:27], v[134:141], v[166:173], v[24:27]
	v_mfma_f32_16x16x128_f8f6f4 v[40:43], v[142:149], v[82:89], v[40:43]
	v_mfma_f32_16x16x128_f8f6f4 v[48:51], v[142:149], v[166:173], v[48:51]
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[80:83], v70 offset:32768
	ds_read_b128 v[84:87], v70 offset:32832
	ds_read_b128 v[88:91], v70 offset:34816
	ds_read_b128 v[92:95], v70 offset:34880
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s36
	v_add_u32_e32 v79, 0x180, v115
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	v_add_u32_e32 v79, 0x180, v116
	s_mov_b32 m0, s37
	s_nop 0
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8)
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x128_f8f6f4 v[8:11], v[134:141], v[118:125], v[8:11]
	s_add_u32 s2, s2, 0x100
	s_addc_u32 s3, s3, 0
	v_cmp_lt_i64_e32 vcc, s[2:3], v[66:67]
	v_add_u32_e32 v71, 0x100, v71
	v_add_u32_e32 v72, 0x100, v72
	v_add_u32_e32 v73, 0x100, v73
	v_add_u32_e32 v74, 0x100, v74
	v_mfma_f32_16x16x128_f8f6f4 v[12:15], v[134:141], v[126:133], v[12:15]
	v_add_u32_e32 v75, 0x100, v75
	v_add_u32_e32 v76, 0x100, v76
	v_add_u32_e32 v77, 0x100, v77
	v_add_u32_e32 v78, 0x100, v78
	v_mfma_f32_16x16x128_f8f6f4 v[52:55], v[142:149], v[118:125], v[52:55]
	v_mfma_f32_16x16x128_f8f6f4 v[60:63], v[142:149], v[126:133], v[60:63]
	s_cbranch_vccnz .LBB0_5
