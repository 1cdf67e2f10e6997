// libxml2's streaming reader (xmlTextReader), for reading GPX of any size in constant memory.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and its encoding header then includes the system's ICU
// headers, which clash with the ICU that Foundation bundles. Nothing here touches the
// encoding-handler struct that needs them.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

// xmlFree is a macro or a variable depending on how libxml2 was built: a function Swift can call.
static inline void locemu_xml_free(void *pointer) { xmlFree(pointer); }
