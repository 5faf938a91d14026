"""How every form of the site draws its fields (settings.FORM_RENDERER)."""
from django.forms import BoundField, CheckboxInput
from django.forms.renderers import DjangoTemplates


class SiteBoundField(BoundField):
    def label_tag(self, contents=None, attrs=None, label_suffix=None, tag=None):
        # A checkbox's label follows the box and reads as a sentence: no "Anti:".
        if label_suffix is None and isinstance(self.field.widget, CheckboxInput):
            label_suffix = ""
        return super().label_tag(contents, attrs, label_suffix, tag)


class SiteFormRenderer(DjangoTemplates):
    bound_field_class = SiteBoundField
