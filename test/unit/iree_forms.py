"""Which form of each IREE configuration the default run builds and emulates.

A configuration of ``iree_configs.CONFIGS`` whose two forms (IREE's prefetch point and its
late form) give one schedule is, in the default run, built to a code object and emulated
from one form only; its other form is pipelined through the front end and the scheduler
(``--emit=schedule-json``) and that schedule asserted equal to the built form's
(``iree_configs.forms_agree``), and the long tier (``PIPELINE_TEST_LONG=1``) builds and
emulates it as well (``iree_configs.long_reason`` gives its item the reason).  The form
compared is compared by the item that emulates its twin form: ``test_configuration`` of
that form, or, for a configuration of ``iree_configs.RANDOM_FORM``, the topic module's item
that runs it in random order (:data:`RANDOM_ITEMS`).

Kept built and emulated from both forms (:data:`BOTH_BUILT`): one configuration per row of
docs/iree-configurations.md's table whose late form takes a front-end path of its own,
where the other form's own code is the point.
``test_iree_configurations.py``'s ``test_each_form_left_out_stands_for_or_by_one_run``
checks that each pipelined configuration of the default run is in one table or the other.
"""

from __future__ import annotations

#: configuration -> (the form the default run only pipelines and compares, why the other
#: form stands for its code)
ONE_BUILT: dict[str, tuple[str, str]] = {
    # both forms built in test_configuration before: the prefetch point kept
    **{name: ("late", why) for name, why in {
        "bf16_abt_1024x4096x2048": "IREE's default tile, DMA copies in both forms",
        "bf16_atbt_300x200x160": "the MFMAs halved and merged, B split crosswise, from "
                                 "either form (the plan's form, FORMS, the built one's)",
        "i8_atbt_129x129x129": "the diagonal form from either form (FORMS: the built one's)",
        "fp8_atb_31x112x224": "the diagonal form of 2 merged K steps from either form (FORMS: "
                              "the built one's)",
        "fp8_abt_64x31x96": "B held whole from either form (FORMS: the built one's)",
        "fp8_abt_31x64x96": "B held whole, A's halves staged 2 bytes a lane, from either "
                            "form (FORMS and HOLDS: the built one's)",
        "fp8_atb_64x129x512": "each MFMA cut into 4 along K from either form",
        "f16_atbt_24x5x400": "IREE's own 16x16x16 MFMAs, 4 K steps merged, from either form",
        "i8_abt_59x28x496": "IREE's own 32x32x16 i8 MFMAs, 4 K steps merged, from either form",
        "fp8_atbt_34x66x4190": "one wave's staged stores after its own reads in flight "
                               "from either form",
        "fp8_atb_1024x1024x1536": "the 64x128 8-bit tile's register copies and transposing "
                                  "reads from either form",
        "i8_abt_512": "the 64x128 8-bit tile's plain reads from either form",
        "i8_abt_512_mfma32_k32": "one 32x32x32 MFMA deep from either form",
        "f16_ab_2048x16x1000": "B's padded reads from either form",
        "i8_abt_63x33x1030": "the late form's guarded loads of the masked K tile moved down "
                             "to their LDS stores (kernel_ir.writes_outside_lds) run in its "
                             "front end, whose schedule is compared; its lowering and run "
                             "are the prefetch point's",
        "bf16_abt_2048x2048x1028": "the late form's unaligned-K path is "
                                   "bf16_abt_2048x2048x1023's (both forms built)",
    }.items()},
    # a topic module runs the other form in random order (RANDOM_FORM): this one was built
    # and emulated in late mode by test_configuration
    **{name: (form, why) for name, form, why in (
        ("fp8_ab_2048x2048x1024", "prefetch", "8-bit transposing reads regrouped from "
         "either form (the prefetch point's vector ops: bf16_ab_2048x2048x1024's, built)"),
        ("i8_ab_2048x2048x1024", "prefetch", "8-bit transposing reads regrouped from either "
         "form (the prefetch point's vector ops: bf16_ab_2048x2048x1024's, built)"),
        ("bf16_ab_1024x1024x512", "prefetch", "B's reads issued in two runs from either form"),
        ("bf16_atb_1024x1024x768", "prefetch", "B's reads issued in two runs from either "
         "form"),
        ("bf16_atb_2048x2048x1024", "late", "A's transposing reads from either form"),
        ("bf16_atbt_2048x2048x1024", "late", "A's transposing reads from either form"),
        ("i8_abt_2048x2048x1024", "late", "i8's register copies from either form"),
        ("bf16_abt_512_mfma32", "prefetch", "the 32x32x16 MFMA from either form"),
        ("i8_abt_512_mfma32", "prefetch", "the 32x32x32 MFMA from either form"),
        ("fp8_abt_512x512x896_mfma32", "prefetch", "the 32x32x64 MFMA from either form (the "
         "late form's stores, which LLVM interleaves with the remainder's MFMAs, "
         "lowering/xdl_window.py, are the built form's)"),
        ("bf16_abt_300x500x200", "late", "the 4-byte copies at C's edges from either form"),
        ("f16_abt_128x4096x1024", "prefetch", "the front end's own copies from either form"),
        ("bf16_abt_2048x2048x1024_no_dma", "prefetch", "copies through registers made "
         "direct-to-LDS from either form"),
        ("bf16_atb_300x200x160", "prefetch", "the MFMAs halved and 2 K steps merged from "
         "either form"),
        ("bf16_ab_2048x2048x1024_vector_distribute", "prefetch", "B's one-element reads "
         "regrouped from either form (the late form's scf.if %true: "
         "bf16_abt_2048x2048x1024_vector_distribute's, built)"),
        ("fp8_abt_2048x2048x1024_vector_distribute", "prefetch", "the K split from either "
         "form"),
        ("bf16_abt_2048x2048x1152_vector_distribute", "late", "the remainder on the stage-0 "
         "buffers from either form"),
        ("fp8_abt_1024x1024x1536_vector_distribute", "late", "the K split's remainder from "
         "either form"))},
    # the prefetch point's build is held by the ISA gate's test of it
    # (test_frag_addresses.py), so the late form is built here
    "i8_abt_89x14x257": ("prefetch", "A's halves read by one ds_read_b128 from either form "
                                     "(the prefetch point built by test_frag_addresses.py)"),
    # the late form is the point (IREE's 3-stage pipelining rolled back): it is built
    **{name: ("prefetch", "IREE's 3-stage pipelining through registers rolled back to the "
                          "prefetch point's schedule")
       for name in ("f16_atb_133x42x198_s3", "f16_atbt_309x255x2024_s3")},
}

#: configuration -> why the default run builds and emulates both its forms
BOTH_BUILT: dict[str, str] = {
    "bf16_abt_16x16x160": "its late form writes C, reads it back and writes it again "
                          "(frontend/epilogue.py)",
    "i8_abt_33x257x512": "its late form stores zero where the prefetch point selects "
                         "(frontend/pad_stores.py)",
    "f16_atbt_24x5x232": "the masked K tail in the pipelined pair: the prefetch point's "
                         "selects of clamped rows, the late form's loads (kept_masks.py, "
                         "address.py, tag_check.py)",
    "bf16_abt_2048x2048x1023": "unaligned K: the late form's guarded loads and explicit "
                               "swizzle, the prefetch point's create_mask",
    "bf16_abt_2048x2048x1024_vector_distribute": "the prefetch point's whole-tile products "
                                                 "(vector_distribute.py), the late form's "
                                                 "scf.if %true (const_if.py)",
    "bf16_ab_2048x2048x1024": "the transposing reads traced through each form's own vector "
                              "ops (from_elements; insert_strided_slice, shape_cast, "
                              "transpose)",
}

#: configuration of ``RANDOM_FORM`` -> the topic module's item that runs it in random order
#: (and compares its forms' schedules: ``iree_configs.exact_in_random_order``)
RANDOM_ITEMS: dict[str, str] = {
    **dict.fromkeys(("bf16_ab_2048x2048x1024", "fp8_ab_2048x2048x1024",
                     "i8_ab_2048x2048x1024"),
                    "test_iree_config_layouts.py::test_transposed_b_forms_agree_and_run_in_"
                    "random_order"),
    **dict.fromkeys(("bf16_atb_2048x2048x1024", "bf16_atbt_2048x2048x1024"),
                    "test_iree_config_layouts.py::test_transposed_a_forms_agree_and_run_in_"
                    "random_order"),
    **dict.fromkeys(("bf16_ab_1024x1024x512", "bf16_atb_1024x1024x768"),
                    "test_iree_config_layouts.py::test_loads_longer_than_lgkmcnt_forms_agree_"
                    "and_run_in_random_order"),
    "bf16_abt_2048x2048x1023": "test_iree_config_tiles.py::test_unaligned_k_forms_agree_and_"
                               "run_in_random_order",
    **dict.fromkeys(("bf16_abt_512", "f16_abt_128x4096x1024"),
                    "test_iree_config_tiles.py::test_redistributed_forms_agree_and_run_in_"
                    "random_order"),
    **dict.fromkeys(("bf16_abt_2048x2048x1024_no_dma", "bf16_atb_300x200x160"),
                    "test_iree_families.py::test_exact_in_random_order"),
    "i8_abt_2048x2048x1024": "test_iree_config_tiles.py::test_i8_forms_agree_and_run_exact_"
                             "in_random_order",
    **dict.fromkeys(("bf16_abt_512_mfma32", "i8_abt_512_mfma32",
                     "fp8_abt_512x512x896_mfma32"),
                    "test_iree_config_tiles.py::test_mfma32_forms_agree_and_run_in_random_"
                    "order"),
    "bf16_abt_300x500x200": "test_iree_config_tiles.py::test_unaligned_forms_agree_and_run_"
                            "in_random_order",
    "bf16_abt_2048x2048x1024_vector_distribute": "test_iree_config_vector_distribute.py::"
                                                 "test_vector_distribute_forms_agree_and_run_"
                                                 "in_random_order",
    "bf16_abt_2048x2048x1152_vector_distribute": "test_iree_config_vector_distribute.py::"
                                                 "test_vector_distribute_odd_k_steps_forms_"
                                                 "agree_and_run_in_random_order",
    "bf16_ab_2048x2048x1024_vector_distribute": "test_iree_config_vector_distribute.py::"
                                                "test_vector_distribute_a_times_b_forms_agree_"
                                                "and_run_in_random_order",
    **dict.fromkeys(("fp8_abt_2048x2048x1024_vector_distribute",
                     "fp8_abt_1024x1024x1536_vector_distribute"),
                    "test_iree_config_ksplit.py::test_vector_distribute_fp8_split_along_k"),
}


def unbuilt_form(name: str) -> str | None:
    """The form of configuration ``name`` the default run only pipelines and compares
    (:data:`ONE_BUILT`), None if it builds both."""
    return ONE_BUILT[name][0] if name in ONE_BUILT else None


def compared_by(name: str) -> str:
    """The default-run item that builds and emulates the other form of a configuration of
    :data:`ONE_BUILT` and compares the two forms' schedules (``iree_configs.forms_agree``)."""
    other = "late" if ONE_BUILT[name][0] == "prefetch" else "prefetch"
    if name in RANDOM_ITEMS:
        return f"{RANDOM_ITEMS[name]} ({other}, random order)"
    return f"test_configuration[{name}-{other}] (late mode)"


def one_built_reason(name: str) -> str:
    """The long-tier reason of the form of ``name`` that :data:`ONE_BUILT` only pipelines in
    the default run."""
    form, why = ONE_BUILT[name]
    return f"{name} ({form}): {why}; its schedule compared with the other form's, which is " \
        f"built and emulated, by {compared_by(name)} in the default run"
