#ifndef FPBRIDGE_CTSS2_SHIM_H
#define FPBRIDGE_CTSS2_SHIM_H

// tpm2-tss: the Enhanced System API (commands), its marshalling (structures to and from the
// TPM's byte layout, so that Swift never reaches into their fixed-size arrays), the TCTI
// loader (swtpm:…, device:…) and readable return codes.
#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_rc.h>

#endif
