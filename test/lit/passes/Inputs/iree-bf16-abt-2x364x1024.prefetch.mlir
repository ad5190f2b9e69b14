#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx950", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x32_F16>, <MFMA_F32_32x32x16_F16>, <MFMA_F32_16x16x32_BF16>, <MFMA_F32_32x32x16_BF16>, <MFMA_F32_16x16x128_F8E5M2>, <MFMA_F32_16x16x128_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN>, <MFMA_F32_16x16x128_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2>, <MFMA_F32_32x32x64_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN>, <MFMA_F32_32x32x64_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x64_I8>, <MFMA_I32_32x32x32_I8>, <MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2>, <MFMA_F32_16x16x32_F8E5M2_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN>, <MFMA_F32_16x16x32_F8E4M3FN_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2>, <MFMA_F32_32x32x16_F8E5M2_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN>, <MFMA_F32_32x32x16_F8E4M3FN_F8E5M2>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E8M0FNU, rhs_elem_type = f8E8M0FNU, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2, rhs_elem_type = f8E5M2, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E5M2FNUZ, rhs_elem_type = f8E5M2FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FNUZ, rhs_elem_type = f8E4M3FNUZ, acc_elem_type = f32>, <intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32, 128], workgroup_memory_bank_count = 64>>, ukernels = "none"}>
#map = affine_map<(d0) -> (d0 * 8)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#nested = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1, 1], batch_tile = [2, 1, 1], outer_tile = [1, 1, 1], thread_tile = [1, 64, 1], element_tile = [1, 1, 8], subgroup_strides = [0, 0, 0], thread_strides = [0, 1, 0]>
#nested1 = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1, 1], batch_tile = [1, 1, 1], outer_tile = [1, 1, 1], thread_tile = [1, 64, 1], element_tile = [1, 1, 8], subgroup_strides = [0, 0, 0], thread_strides = [0, 1, 0]>
#nested2 = #iree_vector_ext.nested_layout<subgroup_tile = [1, 1, 1], batch_tile = [2, 1, 1], outer_tile = [1, 1, 1], thread_tile = [1, 1, 64], element_tile = [1, 1, 1], subgroup_strides = [0, 0, 0], thread_strides = [0, 0, 1]>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
module {
  hal.executable private @matmul_dispatch_0 {
    hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
      hal.executable.export public @matmul_dispatch_0_matmul_2x364x1024_bf16xbf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @matmul_dispatch_0_matmul_2x364x1024_bf16xbf16xf32() attributes {translation_info = #translation} {
          %0 = ub.poison : bf16
          %cst = arith.constant dense<0.000000e+00> : vector<2x1x64xf32>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<2x1xf32>
          %c64 = arith.constant 64 : index
          %c128 = arith.constant 128 : index
          %c0 = arith.constant 0 : index
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<2x1024xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %1, 64 : memref<2x1024xbf16, #hal.descriptor_type<storage_buffer>>
          %2 = amdgpu.fat_raw_buffer_cast %assume_align resetOffset : memref<2x1024xbf16, #hal.descriptor_type<storage_buffer>> to memref<2x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") {iree_gpu.use_rocdl_buffer_instructions} : memref<364x1024xbf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_1 = memref.assume_alignment %3, 64 : memref<364x1024xbf16, #hal.descriptor_type<storage_buffer>>
          %4 = amdgpu.fat_raw_buffer_cast %assume_align_1 resetOffset : memref<364x1024xbf16, #hal.descriptor_type<storage_buffer>> to memref<364x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
          %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) {iree_gpu.use_rocdl_buffer_instructions} : memref<2x364xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_2 = memref.assume_alignment %5, 64 : memref<2x364xf32, #hal.descriptor_type<storage_buffer>>
          %6 = amdgpu.fat_raw_buffer_cast %assume_align_2 resetOffset : memref<2x364xf32, #hal.descriptor_type<storage_buffer>> to memref<2x364xf32, #amdgpu.address_space<fat_raw_buffer>>
          scf.forall (%arg0) in (364) {
            %subview = memref.subview %6[0, %arg0] [2, 1] [1, 1] : memref<2x364xf32, #amdgpu.address_space<fat_raw_buffer>> to memref<2x1xf32, strided<[364, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
            %7 = scf.for %arg1 = %c0 to %c128 step %c64 iter_args(%arg2 = %cst) -> (vector<2x1x64xf32>) {
              %9 = affine.apply #map(%arg1)
              %10 = vector.transfer_read %2[%c0, %9], %0 {in_bounds = [true, true]} : memref<2x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<2x512xbf16>
              %11 = vector.shape_cast %10 : vector<2x512xbf16> to vector<2x64x8xbf16>
              %12 = vector.transfer_read %4[%arg0, %9], %0 {in_bounds = [true, true]} : memref<364x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>, vector<1x512xbf16>
              %13 = vector.shape_cast %12 : vector<1x512xbf16> to vector<1x64x8xbf16>
              %14 = iree_vector_ext.to_layout %11 to layout(#nested) : vector<2x64x8xbf16>
              %15 = iree_vector_ext.to_layout %13 to layout(#nested1) : vector<1x64x8xbf16>
              %16 = iree_vector_ext.to_layout %arg2 to layout(#nested2) : vector<2x1x64xf32>
              %17 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %14, %15, %16 : vector<2x64x8xbf16>, vector<1x64x8xbf16> into vector<2x1x64xf32>
              %18 = iree_vector_ext.to_layout %17 to layout(#nested2) : vector<2x1x64xf32>
              scf.yield %18 : vector<2x1x64xf32>
            }
            %8 = vector.multi_reduction <add>, %7, %cst_0 [2] : vector<2x1x64xf32> to vector<2x1xf32>
            vector.transfer_write %8, %subview[%c0, %c0] {in_bounds = [true, true]} : vector<2x1xf32>, memref<2x1xf32, strided<[364, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
          } {mapping = [#iree_codegen.workgroup_mapping<x>]}
          return
        }
        iree_codegen.dispatch_config @matmul_dispatch_0_matmul_2x364x1024_bf16xbf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
}

