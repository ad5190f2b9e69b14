; main loop of pipeline-opt --pipeline='4wave{dtype=bf16 BM=128 BN=128 BK=64}' --emit=asm
.LBB0_5:
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[116:119], v69 offset:8192
	ds_read_b128 v[120:123], v69 offset:8256
	ds_read_b128 v[124:127], v69 offset:10240
	ds_read_b128 v[128:131], v69 offset:10304
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v79, v78, v70
	s_mov_b32 m0, s11
	v_add_u32_e32 v112, 0x100, v79
	buffer_load_dwordx4 v112, s[12:15], 0 offen lds
	v_add_u32_e32 v112, v77, v70
	v_add_u32_e32 v113, 0x100, v112
	s_mov_b32 m0, s22
	v_mfma_f32_16x16x32_bf16 v[4:7], v[108:111], v[92:95], v[4:7]
	buffer_load_dwordx4 v113, s[12:15], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[12:15], v[108:111], v[84:87], v[12:15]
	v_mfma_f32_16x16x32_bf16 v[36:39], v[100:103], v[92:95], v[36:39]
	v_mfma_f32_16x16x32_bf16 v[44:47], v[100:103], v[84:87], v[44:47]
	v_mfma_f32_16x16x32_bf16 v[4:7], v[104:107], v[88:91], v[4:7]
	v_mfma_f32_16x16x32_bf16 v[12:15], v[104:107], v[80:83], v[12:15]
	v_mfma_f32_16x16x32_bf16 v[36:39], v[96:99], v[88:91], v[36:39]
	v_mfma_f32_16x16x32_bf16 v[44:47], v[96:99], v[80:83], v[44:47]
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[132:135], v68 offset:8192
	ds_read_b128 v[136:139], v68 offset:8256
	ds_read_b128 v[140:143], v68 offset:10240
	ds_read_b128 v[144:147], v68 offset:10304
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x32_bf16 v[0:3], v[108:111], v[116:119], v[0:3]
	s_mov_b32 m0, s23
	v_mfma_f32_16x16x32_bf16 v[8:11], v[108:111], v[124:127], v[8:11]
	v_mfma_f32_16x16x32_bf16 v[0:3], v[104:107], v[120:123], v[0:3]
	v_mfma_f32_16x16x32_bf16 v[8:11], v[104:107], v[128:131], v[8:11]
	v_add_u32_e32 v104, v76, v70
	v_add_u32_e32 v105, 0x100, v104
	buffer_load_dwordx4 v105, s[16:19], 0 offen lds
	v_add_u32_e32 v105, v75, v70
	v_add_u32_e32 v106, 0x100, v105
	s_mov_b32 m0, s24
	v_mfma_f32_16x16x32_bf16 v[28:31], v[100:103], v[116:119], v[28:31]
	buffer_load_dwordx4 v106, s[16:19], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[40:43], v[100:103], v[124:127], v[40:43]
	v_mfma_f32_16x16x32_bf16 v[28:31], v[96:99], v[120:123], v[28:31]
	v_mfma_f32_16x16x32_bf16 v[40:43], v[96:99], v[128:131], v[40:43]
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[96:99], v68 offset:16384
	ds_read_b128 v[100:103], v68 offset:16448
	ds_read_b128 v[106:109], v68 offset:18432
	ds_read_b128 v[148:151], v68 offset:18496
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x32_bf16 v[24:27], v[132:135], v[92:95], v[24:27]
	s_mov_b32 m0, s25
	v_mfma_f32_16x16x32_bf16 v[48:51], v[140:143], v[92:95], v[48:51]
	v_add_u32_e32 v92, v74, v70
	v_add_u32_e32 v93, 0x100, v92
	buffer_load_dwordx4 v93, s[16:19], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[24:27], v[136:139], v[88:91], v[24:27]
	s_mov_b32 m0, s26
	v_mfma_f32_16x16x32_bf16 v[48:51], v[144:147], v[88:91], v[48:51]
	v_add_u32_e32 v88, v73, v70
	v_add_u32_e32 v89, 0x100, v88
	buffer_load_dwordx4 v89, s[16:19], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[32:35], v[132:135], v[84:87], v[32:35]
	v_mfma_f32_16x16x32_bf16 v[56:59], v[140:143], v[84:87], v[56:59]
	v_mfma_f32_16x16x32_bf16 v[32:35], v[136:139], v[80:83], v[32:35]
	v_mfma_f32_16x16x32_bf16 v[56:59], v[144:147], v[80:83], v[56:59]
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[82:85], v69 offset:16384
	ds_read_b128 v[152:155], v69 offset:16448
	ds_read_b128 v[156:159], v69 offset:18432
	ds_read_b128 v[160:163], v69 offset:18496
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v113, v72, v70
	s_mov_b32 m0, s27
	v_add_u32_e32 v80, 0x100, v113
	v_add_u32_e32 v114, v71, v70
	buffer_load_dwordx4 v80, s[12:15], 0 offen lds
	v_add_u32_e32 v80, 0x100, v114
	s_mov_b32 m0, s28
	s_nop 0
	buffer_load_dwordx4 v80, s[12:15], 0 offen lds
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8)
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x32_bf16 v[16:19], v[132:135], v[116:119], v[16:19]
	v_mfma_f32_16x16x32_bf16 v[20:23], v[132:135], v[124:127], v[20:23]
	v_mfma_f32_16x16x32_bf16 v[52:55], v[140:143], v[116:119], v[52:55]
	v_mfma_f32_16x16x32_bf16 v[60:63], v[140:143], v[124:127], v[60:63]
	v_mfma_f32_16x16x32_bf16 v[16:19], v[136:139], v[120:123], v[16:19]
	v_mfma_f32_16x16x32_bf16 v[20:23], v[136:139], v[128:131], v[20:23]
	v_mfma_f32_16x16x32_bf16 v[52:55], v[144:147], v[120:123], v[52:55]
	v_mfma_f32_16x16x32_bf16 v[60:63], v[144:147], v[128:131], v[60:63]
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[116:119], v69 offset:24576
	ds_read_b128 v[120:123], v69 offset:24640
	ds_read_b128 v[124:127], v69 offset:26624
	ds_read_b128 v[128:131], v69 offset:26688
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s29
	v_add_u32_e32 v79, 0x180, v79
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	v_add_u32_e32 v79, 0x180, v112
	s_mov_b32 m0, s30
	v_mfma_f32_16x16x32_bf16 v[4:7], v[96:99], v[82:85], v[4:7]
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[12:15], v[96:99], v[156:159], v[12:15]
	v_mfma_f32_16x16x32_bf16 v[36:39], v[106:109], v[82:85], v[36:39]
	v_mfma_f32_16x16x32_bf16 v[44:47], v[106:109], v[156:159], v[44:47]
	v_mfma_f32_16x16x32_bf16 v[4:7], v[100:103], v[152:155], v[4:7]
	v_mfma_f32_16x16x32_bf16 v[12:15], v[100:103], v[160:163], v[12:15]
	v_mfma_f32_16x16x32_bf16 v[36:39], v[148:151], v[152:155], v[36:39]
	v_mfma_f32_16x16x32_bf16 v[44:47], v[148:151], v[160:163], v[44:47]
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[132:135], v68 offset:24576
	ds_read_b128 v[136:139], v68 offset:24640
	ds_read_b128 v[140:143], v68 offset:26624
	ds_read_b128 v[144:147], v68 offset:26688
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s31
	v_add_u32_e32 v79, 0x180, v104
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_add_u32_e32 v79, 0x180, v105
	s_mov_b32 m0, s33
	v_mfma_f32_16x16x32_bf16 v[0:3], v[96:99], v[116:119], v[0:3]
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[8:11], v[96:99], v[124:127], v[8:11]
	v_mfma_f32_16x16x32_bf16 v[28:31], v[106:109], v[116:119], v[28:31]
	v_mfma_f32_16x16x32_bf16 v[40:43], v[106:109], v[124:127], v[40:43]
	v_mfma_f32_16x16x32_bf16 v[0:3], v[100:103], v[120:123], v[0:3]
	v_mfma_f32_16x16x32_bf16 v[8:11], v[100:103], v[128:131], v[8:11]
	v_mfma_f32_16x16x32_bf16 v[28:31], v[148:151], v[120:123], v[28:31]
	v_mfma_f32_16x16x32_bf16 v[40:43], v[148:151], v[128:131], v[40:43]
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8) lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_barrier
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[108:111], v68
	ds_read_b128 v[104:107], v68 offset:64
	ds_read_b128 v[100:103], v68 offset:2048
	ds_read_b128 v[96:99], v68 offset:2112
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s34
	v_add_u32_e32 v79, 0x180, v92
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_add_u32_e32 v79, 0x180, v88
	s_mov_b32 m0, s35
	v_mfma_f32_16x16x32_bf16 v[24:27], v[132:135], v[82:85], v[24:27]
	buffer_load_dwordx4 v79, s[16:19], 0 offen lds
	v_mfma_f32_16x16x32_bf16 v[32:35], v[132:135], v[156:159], v[32:35]
	v_mfma_f32_16x16x32_bf16 v[48:51], v[140:143], v[82:85], v[48:51]
	v_mfma_f32_16x16x32_bf16 v[56:59], v[140:143], v[156:159], v[56:59]
	v_mfma_f32_16x16x32_bf16 v[24:27], v[136:139], v[152:155], v[24:27]
	v_mfma_f32_16x16x32_bf16 v[32:35], v[136:139], v[160:163], v[32:35]
	v_mfma_f32_16x16x32_bf16 v[48:51], v[144:147], v[152:155], v[48:51]
	v_mfma_f32_16x16x32_bf16 v[56:59], v[144:147], v[160:163], v[56:59]
	; sched_barrier mask(0x00000000)
	ds_read_b128 v[92:95], v69
	ds_read_b128 v[88:91], v69 offset:64
	ds_read_b128 v[84:87], v69 offset:2048
	ds_read_b128 v[80:83], v69 offset:2112
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s36
	v_add_u32_e32 v79, 0x180, v113
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	v_add_u32_e32 v79, 0x180, v114
	s_mov_b32 m0, s37
	s_nop 0
	buffer_load_dwordx4 v79, s[12:15], 0 offen lds
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(8)
	; sched_barrier mask(0x00000000)
	v_mfma_f32_16x16x32_bf16 v[16:19], v[132:135], v[116:119], v[16:19]
	s_add_u32 s2, s2, 0x80
	s_addc_u32 s3, s3, 0
	v_cmp_lt_i64_e32 vcc, s[2:3], v[64:65]
	v_mfma_f32_16x16x32_bf16 v[20:23], v[132:135], v[124:127], v[20:23]
	v_add_u32_e32 v71, 0x100, v71
	v_add_u32_e32 v72, 0x100, v72
	v_add_u32_e32 v73, 0x100, v73
	v_mfma_f32_16x16x32_bf16 v[52:55], v[140:143], v[116:119], v[52:55]
	v_add_u32_e32 v74, 0x100, v74
	v_add_u32_e32 v75, 0x100, v75
	v_add_u32_e32 v76, 0x100, v76
	v_mfma_f32_16x16x32_bf16 v[60:63], v[140:143], v[124:127], v[60:63]
	v_add_u32_e32 v77, 0x100, v77
	v_add_u32_e32 v78, 0x100, v78
	s_and_b64 vcc, exec, vcc
	v_mfma_f32_16x16x32_bf16 v[16:19], v[136:139], v[120:123], v[16:19]
	v_mfma_f32_16x16x32_bf16 v[20:23], v[136:139], v[128:131], v[20:23]
	v_mfma_f32_16x16x32_bf16 v[52:55], v[144:147], v[120:123], v[52:55]
	v_mfma_f32_16x16x32_bf16 v[60:63], v[144:147], v[128:131], v[60:63]
	s_cbranch_vccnz .LBB0_5
