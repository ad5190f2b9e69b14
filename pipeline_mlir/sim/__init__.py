"""Know a schedule without hardware: functional (hazard) and timing simulation, bounds, report.

* ``instr`` - the instruction stream the timing models run (one per wave)
* ``trace`` - a compiled or dumped schedule expanded into per-wave streams
* ``functional`` - the memory/counter/barrier model: hazards and the K tiles each accumulator receives
* ``costs``, ``wave_model``, ``cu_model``, ``bounds`` - cost tables, the single-wave issue model
  (equal to llvm-mca-22), the multi-wave CU model, ResMII/RecMII
* ``report``, ``timeline`` - the text report and the timeline picture
"""
