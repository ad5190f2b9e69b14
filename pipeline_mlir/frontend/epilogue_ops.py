"""The ops the epilogue reader (:mod:`pipeline_mlir.frontend.epilogue`) reads and writes
through, by name, and where each keeps its memref and value: one table, shared by the
reader and by :mod:`pipeline_mlir.frontend.bias_axis`."""

from __future__ import annotations

from pipeline_mlir.dialect.bindings import ir
from pipeline_mlir.dialect.ir_io import as_operation

#: read ops -> (operand index of the memref)
READS = {"vector.transfer_read": 0, "vector.load": 0, "memref.load": 0}
#: write ops -> (operand index of the value, of the memref); a scatter's and a masked
#: store's value is their last operand (IREE's partial edge tiles store C with them)
WRITES = {"vector.transfer_write": (0, 1), "vector.store": (0, 1), "memref.store": (0, 1),
          "vector.scatter": (-1, 0), "vector.maskedstore": (-1, 0), "memref.copy": (0, 1),
          "iree_linalg_ext.map_load": (0, 1)}
#: IREE's gather of a binding's elements into private memory (its epilogue loads a bias of
#: an edge tile so): the binding is its "value" when the element each destination element
#: gets, computed by its region, is that of a strided view of it
#: (:func:`~pipeline_mlir.frontend.gather_order.check_in_order`)
MAP_LOAD = "iree_linalg_ext.map_load"
#: the writes whose "value" is a memref they copy from (IREE's partial edge tiles of C
#: copied from private memory, a row of per-thread size at a time)
COPIES = frozenset({"memref.copy"})


def gathered(op) -> tuple:
    """(the source buffer of ``map_load`` ``op``, the source indices its region yields)."""
    src = op.operands[0]
    block = op.regions[0].blocks[0]
    return src, list(as_operation(block.operations[-1]).operands)[
        :ir.MemRefType(src.type).rank]
